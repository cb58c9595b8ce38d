// Stripe's idempotency layer for POSTs (docs.stripe.com/api/idempotent_requests): the first answer
// given under a key, once the endpoint has begun, is answered again to every request with that key
// and the same endpoint and parameters (with `Idempotent-Replayed: true`); the same key with another
// endpoint or other parameters is refused with `idempotency_error`. Stripe prunes keys after 24 hours;
// the fake keeps them for its lifetime.
import { FakeStripeError } from "./errors";
import { canonicalForm, type TFormObject } from "./form";

export interface TAnswer {
  status: number;
  body: unknown;
  requestId: string;
}

interface TKept {
  endpoint: string;
  params: string;
  answer: TAnswer;
}

export class IdempotencyKeys {
  private readonly kept = new Map<string, TKept>();

  /** The kept answer for a replay, nothing for a new key; throws when the key was used for something else. */
  replay(key: string, endpoint: string, params: TFormObject): TAnswer | undefined {
    const kept = this.kept.get(key);
    if (!kept) return undefined;
    if (kept.endpoint !== endpoint) {
      throw new FakeStripeError(
        400,
        "idempotency_error",
        `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${kept.endpoint}' vs '${endpoint}'). Try using a key other than '${key}' if you meant to execute a different request.`,
      );
    }
    if (kept.params !== canonicalForm(params)) {
      throw new FakeStripeError(
        400,
        "idempotency_error",
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      );
    }
    return kept.answer;
  }

  keep(key: string, endpoint: string, params: TFormObject, answer: TAnswer): void {
    this.kept.set(key, { endpoint, params: canonicalForm(params), answer });
  }
}
