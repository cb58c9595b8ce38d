// Faults a test asks for, taken in the order they were injected. A request fault (error500,
// lose_answer, slow) is taken by the next API request whose path includes its `match` (any API
// request when it has none); `fail_later` is taken by the next refund actually made.
import type { TFailLater } from "./store";

export type TFault =
  | { kind: "error500"; times?: number; match?: string }
  | { kind: "lose_answer"; times?: number; match?: string }
  | { kind: "slow"; ms: number; times?: number; match?: string }
  | { kind: "fail_later"; afterMs: number; reason?: string; times?: number };

export type TRequestFault = Exclude<TFault, { kind: "fail_later" }>;

/** Stripe's failure_reason for a refund the card network sends back. */
const DEFAULT_FAILURE_REASON = "expired_or_canceled_card";

export class FaultQueue {
  private readonly queue: { fault: TFault; left: number }[] = [];

  add(fault: TFault): void {
    const left = fault.times ?? 1;
    if (!Number.isInteger(left) || left < 1) throw new Error(`A fault's times must be a positive integer, not ${fault.times}`);
    this.queue.push({ fault, left });
  }

  takeForRequest(path: string): TRequestFault | undefined {
    const found = this.take((f) => f.kind !== "fail_later" && (f.match === undefined || path.includes(f.match)));
    return found as TRequestFault | undefined;
  }

  takeFailLater(): TFailLater | undefined {
    const found = this.take((f) => f.kind === "fail_later");
    return found?.kind === "fail_later" ? { afterMs: found.afterMs, reason: found.reason ?? DEFAULT_FAILURE_REASON } : undefined;
  }

  private take(applies: (fault: TFault) => boolean): TFault | undefined {
    const i = this.queue.findIndex((entry) => applies(entry.fault));
    const entry = this.queue[i];
    if (!entry) return undefined;
    entry.left -= 1;
    if (entry.left === 0) this.queue.splice(i, 1);
    return entry.fault;
  }
}
