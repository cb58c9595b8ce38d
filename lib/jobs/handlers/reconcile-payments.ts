import { reconcileProviderRefunds } from "../../approvals/reconcile-refunds";
import type { RECONCILE_PAYMENTS_JOB } from "../definitions/reconcile-payments";
import type { TJobInput } from "./job-input";

/** Refunds not final at the provider after a while → asked again (same key) or read, and settled. */
export async function reconcilePaymentsJob({ client }: TJobInput<typeof RECONCILE_PAYMENTS_JOB>): Promise<unknown> {
  return reconcileProviderRefunds({ client });
}
