"use client";
import Link from "next/link";
import { useState, useTransition } from "react";
import { failureText } from "@/components/action-message";
import { formatAmount, formatUtc } from "@/components/format";
import { Cell, CardRow, ResponsiveTable, SelectCell } from "@/components/responsive-table";
import type { TBatchOutcome, TBatchPreviewRow } from "@/lib/approvals/decide-batch";
import { withChecked } from "../../bulk-work";
import { decideBatchAction } from "./actions";

type TRow = Omit<TBatchPreviewRow, "expiresAt"> & { expiresAt: string };

const BUTTON = "inline-flex h-8 items-center rounded-md px-3 text-[13px] font-medium disabled:cursor-not-allowed disabled:opacity-50";

/** The preview table, one note, approve or reject the selected; then each item's outcome in its row. */
export function BatchDecisionForm({ rows }: { rows: TRow[] }) {
  const batch = useBatchDecision(rows);
  const decided = batch.outcomes !== null;
  return (
    <div className="space-y-3">
      <ResponsiveTable
        caption="Requests to decide"
        columns={["Decide", "Ticket", "Proposal", "Evidence", "Who may approve", decided ? "Outcome" : "Expires"]}
      >
        {rows.map((r) => (
          <BatchRow
            key={r.approvalId}
            row={r}
            selected={batch.selected.has(r.approvalId)}
            onToggle={(on) => batch.toggle(r.approvalId, on)}
            decided={decided}
            outcome={batch.outcomes?.get(r.approvalId)}
          />
        ))}
      </ResponsiveTable>
      {batch.outcomes ? <BatchResult outcomes={batch.outcomes} /> : <BatchControls batch={batch} />}
    </div>
  );
}

/** The selection, the note, and the decision sent for the selected; each item's outcome once decided. */
function useBatchDecision(rows: TRow[]) {
  // Only what the person may decide starts selected or can be ticked (decision-options.ts, the rules
  // a decision is held to); the others say why. A request that changes meanwhile is still refused
  // item by item, and its outcome says why, beside the others decided.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set(rows.filter((r) => r.mayDecide).map((r) => r.approvalId)));
  const [note, setNote] = useState("");
  const [outcomes, setOutcomes] = useState<ReadonlyMap<string, TBatchOutcome> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const toggle = (id: string, on: boolean) => setSelected((previous) => withChecked(previous, [id], on));
  const decide = (decision: "approve" | "reject") =>
    startTransition(async () => {
      setError(null);
      const items = rows.filter((r) => selected.has(r.approvalId)).map((r) => ({ approvalId: r.approvalId, digest: r.digest }));
      const result = await decideBatchAction({ items, decision, note: note.trim() || undefined });
      if (result.status !== "ok")
        return setError(
          failureText(result, { forbidden: "Your role may not approve or reject requests.", invalid: "Check the selection." }),
        );
      setOutcomes(new Map(result.outcomes.map((o) => [o.approvalId, o])));
    });
  return { selected, toggle, note, setNote, outcomes, error, pending, decide };
}

/** One request: its box, the ticket, what it proposes and the reply, the evidence, who may approve, and its expiry or outcome. */
function BatchRow({
  row: r,
  selected,
  onToggle,
  decided,
  outcome,
}: {
  row: TRow;
  selected: boolean;
  onToggle: (on: boolean) => void;
  decided: boolean;
  outcome: TBatchOutcome | undefined;
}) {
  return (
    <CardRow className="align-top">
      <SelectCell
        name={`Decide ticket #${r.ticket.number}`}
        word="Decide"
        checked={selected}
        disabled={decided || !r.mayDecide}
        onToggle={(checked) => onToggle(checked)}
      />
      <Cell label="Ticket" className="col-span-2 min-w-0 md:col-span-1">
        <Link
          href={`/tickets/${r.ticket.id}`}
          prefetch={false}
          className="wrap-anywhere text-slate-900 hover:text-indigo-700 hover:underline"
        >
          <span className="font-mono text-[12px] text-slate-500">#{r.ticket.number}</span> {r.ticket.subject}
        </Link>
      </Cell>
      <ProposalCell row={r} />
      <Cell label="Evidence" className="min-w-0">
        {r.citations.length ? (
          r.citations.map((c) => (
            <code key={c} className="block font-mono text-[12px] text-slate-700">
              {c}
            </code>
          ))
        ) : (
          <span className="text-slate-500">None cited</span>
        )}
      </Cell>
      <Cell label="Who may approve" className="min-w-0">
        <span className="block text-slate-700">A {r.requiredRole.toLowerCase()} or above</span>
        {r.refusal ? (
          <span data-testid="cannot-decide" data-code={r.refusal.code} className="block text-[12px] font-medium text-amber-900">
            {r.refusal.message}
          </span>
        ) : null}
      </Cell>
      <Cell label={decided ? "Outcome" : "Expires"} className="min-w-0">
        {outcome ? (
          <Outcome outcome={outcome} />
        ) : decided ? (
          <span className="text-slate-500">Not selected</span>
        ) : (
          <time dateTime={r.expiresAt} className="text-slate-700 tabular-nums">
            {formatUtc(r.expiresAt, "minute")}
          </time>
        )}
      </Cell>
    </CardRow>
  );
}

/** The refund proposed (or a reply alone), and the reply the customer receives. */
function ProposalCell({ row: r }: { row: TRow }) {
  return (
    <Cell label="Proposal" className="min-w-0">
      {r.proposal ? (
        <>
          <span className="block font-medium text-slate-900 tabular-nums">
            Refund {formatAmount(r.proposal.amountCents, r.proposal.currency)}
          </span>
          <span className="block text-[12px] text-slate-500">
            {r.proposal.orderId} · policy <code className="font-mono">{r.proposal.decision}</code>
          </span>
        </>
      ) : (
        <span className="text-slate-700">A reply, no refund</span>
      )}
      <p className="mt-1 text-[11px] font-medium tracking-wide text-slate-500 uppercase">The customer receives</p>
      <p data-testid="batch-reply" className="whitespace-pre-wrap wrap-anywhere text-[12px] text-slate-800">
        {r.reply}
      </p>
    </Cell>
  );
}

/** The note for every selected request, Approve and Reject, and why a batch was refused as a whole. */
function BatchControls({ batch }: { batch: ReturnType<typeof useBatchDecision> }) {
  const { selected, note, setNote, pending, decide, error } = batch;
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-3">
      <label htmlFor="batch-note" className="block text-[12px] font-medium text-slate-700">
        Note for every selected request <span className="font-normal text-slate-500">(required to reject)</span>
      </label>
      <input
        id="batch-note"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        maxLength={2000}
        className="block h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-[13px]"
      />
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          disabled={pending || selected.size === 0}
          onClick={() => decide("approve")}
          className={`${BUTTON} bg-emerald-600 text-white hover:bg-emerald-700`}
        >
          Approve {selected.size} selected
        </button>
        <button
          type="button"
          disabled={pending || selected.size === 0}
          onClick={() => decide("reject")}
          className={`${BUTTON} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`}
        >
          Reject {selected.size} selected
        </button>
        {pending ? <span className="text-[12px] text-slate-500">Deciding…</span> : null}
      </div>
      {error ? (
        <p role="alert" className="text-[13px] text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** How many were approved, rejected and refused, and the way back to the approvals. */
function BatchResult({ outcomes }: { outcomes: ReadonlyMap<string, TBatchOutcome> }) {
  const counts = [...outcomes.values()].reduce<Record<string, number>>((c, o) => ({ ...c, [o.outcome]: (c[o.outcome] ?? 0) + 1 }), {});
  return (
    <p role="status" data-testid="batch-result" className="text-[13px] font-medium text-slate-900">
      {[
        counts.approved ? `${counts.approved} approved` : null,
        counts.rejected ? `${counts.rejected} rejected` : null,
        counts.refused ? `${counts.refused} refused` : null,
      ]
        .filter(Boolean)
        .join(" · ")}
      .{" "}
      <Link href="/?view=approval" className="font-normal text-indigo-700 hover:underline">
        Back to the approvals
      </Link>
    </p>
  );
}

function Outcome({ outcome }: { outcome: TBatchOutcome }) {
  if (outcome.outcome === "refused") {
    return (
      <span data-testid="outcome" data-outcome={`refused:${outcome.code}`} className="text-amber-900">
        Refused ({outcome.code}): {outcome.message}
      </span>
    );
  }
  return (
    <span data-testid="outcome" data-outcome={outcome.outcome} className="font-medium text-emerald-800">
      {outcome.outcome === "approved"
        ? outcome.approvals < outcome.approvalsRequired
          ? `Approval ${outcome.approvals} of ${outcome.approvalsRequired}: a second person must approve`
          : outcome.refund
            ? "Approved: refund queued"
            : "Approved"
        : "Rejected"}
    </span>
  );
}
