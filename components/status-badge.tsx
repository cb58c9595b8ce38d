import { REASON_LABELS, STATUS_LABELS, isStopReason } from "@/lib/contracts/reason-codes";
import { LIFECYCLE_REASON_LABELS, isLifecycleReason } from "@/lib/tickets/lifecycle";
import type { RunStatus, TicketStatus } from "@/generated/prisma/enums";

/** A tone for every ticket and run status. */
const TONE: Readonly<Record<string, string>> = {
  needs_human: "bg-amber-50 text-amber-800 ring-amber-200",
  blocked: "bg-red-50 text-red-800 ring-red-200",
  bypassed: "bg-slate-100 text-slate-700 ring-slate-200",
  auto_approved: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  completed: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  resolved: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  running: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  approved: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  interrupted: "bg-red-50 text-red-800 ring-red-200",
  open: "bg-sky-50 text-sky-800 ring-sky-200",
} satisfies Record<TicketStatus | RunStatus, string>;

/** A status in words with its code beside it, e.g. "Needs a person · needs_human". */
export function StatusBadge({ status }: { status: string }) {
  const label = STATUS_LABELS[status as keyof typeof STATUS_LABELS] ?? status;
  return (
    <span
      className={`inline-flex max-w-full flex-wrap items-center gap-x-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONE[status] ?? TONE.bypassed}`}
    >
      {label}
      <code className="font-mono text-[11px] font-normal">{status}</code>
    </span>
  );
}

/** A reason in words with its code beside it. */
export function ReasonText({ reason }: { reason: string | null }) {
  if (!reason) return <span className="text-slate-400">–</span>;
  return (
    <span>
      {isStopReason(reason) ? REASON_LABELS[reason] : isLifecycleReason(reason) ? LIFECYCLE_REASON_LABELS[reason] : reason}{" "}
      <code className="font-mono text-[11px] text-slate-500">{reason}</code>
    </span>
  );
}
