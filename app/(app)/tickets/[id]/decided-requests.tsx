// Every decision taken on a ticket, newest first, each in its own words: a rejection with its note,
// an approval with who gave it (two people for a two-person refund), a reply written by hand – and
// the reply the customer was actually sent, with the refund's outcome and its ledger rows.
import { formatMoney } from "@/lib/agent/rule-drafter";
import { ROLE_LABELS } from "@/lib/contracts/roles";
import type { TTicketDetail } from "@/lib/queue/load-ticket-detail";
import { formatUtc } from "@/components/format";
import { ExecutionStatus } from "./execution-status";

type TRequest = TTicketDetail["approvals"][number];

/** The requests a person (or the policy) decided: not those replaced by a newer run or an edit. */
export function decidedRequests(approvals: readonly TRequest[]): TRequest[] {
  return approvals.filter((a) => a.status !== "pending" && a.status !== "superseded" && a.decisions.length > 0);
}

function verdict(request: TRequest): string {
  const last = request.decisions.at(-1)!;
  if (last.decision === "reject") return "Rejected";
  // A reply request with no run behind it is one a person wrote and sent themselves.
  if (request.kind === "reply" && request.runId === null) return "Answered by hand";
  return "Approved";
}

function DecidedRequest({ request, latest }: { request: TRequest; latest: boolean }) {
  const last = request.decisions.at(-1)!;
  const who = last.automatic
    ? "the policy, within the autonomy dial"
    : request.decisions.map((d) => `${d.decider?.name ?? "?"} (${ROLE_LABELS[d.deciderRole]})`).join(" and ");
  const notes = request.decisions.filter((d) => d.note);
  return (
    <li data-testid="decided-request" className="space-y-1.5 py-2 first:pt-0 last:pb-0">
      <p>
        <span className="font-medium">{verdict(request)}</span> by {who} on {formatUtc(last.createdAt, "minute")}
        {notes.length ? `: ${notes.map((d) => `“${d.note}”`).join(" · ")}` : "."}
      </p>
      {request.editedFrom?.proposal && request.proposal ? (
        <p data-testid="edited-proposal" className="text-slate-700">
          The agent proposed {formatMoney(request.editedFrom.proposal.amountCents, request.editedFrom.proposal.currency)};{" "}
          {request.editedBy?.name ?? "a person"} lowered it to {formatMoney(request.proposal.amountCents, request.proposal.currency)} before
          approving.
        </p>
      ) : null}
      {request.decisions.some((d) => d.editedReply) ? (
        <p className="text-slate-600">The reply was edited before approval; the original is kept.</p>
      ) : null}
      {latest && request.kind === "refund" && request.status === "approved" ? <ExecutionStatus outcome={request.executionOutcome} /> : null}
      {request.ledgerEntries.map((l) => (
        <p key={l.id} className="text-slate-600">
          Ledger: {formatMoney(l.amountCents, l.currency)} refunded on {l.orderId} (key{" "}
          <code className="font-mono text-[11px]">{l.idempotencyKey.slice(0, 20)}…</code>)
        </p>
      ))}
      {request.outbox ? (
        <figure className="rounded-md border border-slate-200 bg-slate-50 p-2">
          <figcaption className="text-[12px] text-slate-500">
            Reply sent to the customer ·{" "}
            {request.outbox.deliveredAt
              ? `delivered ${formatUtc(request.outbox.deliveredAt, "minute")}`
              : `in the outbox since ${formatUtc(request.outbox.createdAt, "minute")}`}
          </figcaption>
          <blockquote data-testid="reply-sent" className="mt-1 whitespace-pre-wrap wrap-anywhere text-slate-800">
            {request.outbox.body}
          </blockquote>
        </figure>
      ) : null}
    </li>
  );
}

export function DecidedRequests({ requests }: { requests: readonly TRequest[] }) {
  return (
    <ol className="divide-y divide-slate-100 text-[13px]">
      {requests.map((r, i) => (
        <DecidedRequest key={r.id} request={r} latest={i === 0} />
      ))}
    </ol>
  );
}
