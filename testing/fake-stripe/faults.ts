// Faults a test asks for, taken in the order they were injected. A request fault (error500,
// lose_answer, slow) is taken by the next API request whose path includes its `match` (any API
// request when it has none); `fail_later` is taken by the next refund actually made. A slow answer
// can be let go early (`release`), so a test sees the state in between for as long as it needs.
import { setTimeout as sleep } from "node:timers/promises";
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
  private readonly held = new Set<AbortController>();

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

  /** Waits a slow fault's time, or until `release` lets the answer go. */
  async hold(ms: number): Promise<void> {
    const controller = new AbortController();
    this.held.add(controller);
    try {
      await sleep(ms, undefined, { signal: controller.signal });
    } catch {
      // released early
    } finally {
      this.held.delete(controller);
    }
  }

  /** Lets every answer a slow fault is holding go now; answers how many there were. */
  release(): number {
    const count = this.held.size;
    for (const controller of this.held) controller.abort();
    return count;
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
