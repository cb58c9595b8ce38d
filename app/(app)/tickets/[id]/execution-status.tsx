"use client";
// The refund job's progress after an approval: pending until the worker records the executor's
// outcome, refreshed live meanwhile; then what happened, in words, with the code beside it.
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import type { TExecutionOutcome } from "@/lib/contracts/reason-codes";

/** Every executor outcome in words: a new outcome fails the typecheck here until it has them. */
export const EXECUTION_TEXT: Readonly<Record<string, string>> = {
  refund_created: "The refund was written to the ledger.",
  duplicate_ignored: "This refund had already been executed: nothing more was written.",
  "blocked:exceeds_refundable": "The refund was blocked: the order has no refundable amount left. No reply was sent.",
  "blocked:approval_expired": "The refund was blocked: the approval had expired. No reply was sent.",
  "blocked:approval_mismatch": "The refund was blocked: the proposal no longer matches what was approved. No reply was sent.",
  "blocked:not_approved": "The refund was blocked: it is not approved. No reply was sent.",
  "blocked:order_unavailable": "The refund was blocked: the shop no longer has the order. No reply was sent.",
} satisfies Record<TExecutionOutcome, string>;

export function ExecutionStatus({ outcome }: { outcome: string | null }) {
  const router = useRouter();
  useEffect(() => {
    if (outcome) return;
    const timer = setInterval(() => router.refresh(), 2000);
    return () => clearInterval(timer);
  }, [outcome, router]);
  if (!outcome) {
    return (
      <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-amber-900">
        Refund pending: the executor has not recorded an outcome yet. This page updates when it does.
      </p>
    );
  }
  const blocked = outcome.startsWith("blocked:");
  return (
    <p role="status" className={`rounded-md px-3 py-2 ${blocked ? "bg-rose-50 text-rose-900" : "bg-emerald-50 text-emerald-900"}`}>
      {EXECUTION_TEXT[outcome] ?? outcome} <code className="font-mono text-[11px]">{outcome}</code>
    </p>
  );
}
