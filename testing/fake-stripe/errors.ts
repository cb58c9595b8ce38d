// Errors in the shape Stripe answers them: `{ error: { type, code?, message, param? } }` with the HTTP
// status the official client reads to pick its error class (400/404 → StripeInvalidRequestError, or
// StripeIdempotencyError when the type says so; 401 → StripeAuthenticationError; 5xx → StripeAPIError).

export type TStripeErrorType = "invalid_request_error" | "idempotency_error" | "api_error";

export interface TStripeErrorBody {
  error: { type: TStripeErrorType; message: string; code?: string; param?: string; request_log_url?: string };
}

export class FakeStripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: TStripeErrorType,
    message: string,
    readonly code?: string,
    readonly param?: string,
    /** Stripe keeps an idempotent result only once the endpoint has begun: a request refused for its parameters is not kept. */
    readonly kept = true,
  ) {
    super(message);
  }

  body(): TStripeErrorBody {
    const { type, message, code, param } = this;
    return { error: { type, message, ...(code ? { code } : {}), ...(param ? { param } : {}) } };
  }
}

/** Refused by the endpoint's own rules (the refund cannot be made): kept for the idempotency key. */
export const invalidRequest = (message: string, code?: string, param?: string) =>
  new FakeStripeError(400, "invalid_request_error", message, code, param);

/** Refused for its parameters, before the endpoint begins: not kept, so a corrected retry may use the key. */
export const invalidParam = (message: string, code: string, param: string) =>
  new FakeStripeError(400, "invalid_request_error", message, code, param, false);

/** An object named in the path (404) or in a parameter (400) that does not exist. */
export const notFound = (kind: string, id: string, param?: string) =>
  new FakeStripeError(param ? 400 : 404, "invalid_request_error", `No such ${kind}: '${id}'`, "resource_missing", param, false);

/** Money as Stripe writes it in its messages: "$12.34" for usd, "12.34 EUR" otherwise. */
export const money = (amount: number, currency: string) =>
  currency === "usd" ? `$${(amount / 100).toFixed(2)}` : `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
