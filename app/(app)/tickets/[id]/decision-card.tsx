// The ticket page's main column: the decision (the waiting request, the decisions taken, or why
// nothing waits), and the evidence the agent's run cited.
import Link from "next/link";
import { Card } from "@/components/card";
import { citationHref } from "@/components/cited-text";
import { DecidedRequests } from "./decided-requests";
import { PendingRequest } from "./pending-request";
import { ResolveForm } from "./resolve-form";
import type { TPassage, TTicketView } from "./ticket-view";

export function DecisionCard({ page }: { page: TTicketView }) {
  const { ticket, pending, view, decided, may } = page;
  return (
    <Card title={view ? view.heading : "Decision"} id="decision-heading">
      {pending ? (
        <PendingRequest
          pending={pending}
          view={view}
          passages={page.passages}
          policy={page.policy}
          ticketId={ticket.id}
          mayRunAgent={may.runAgent}
          now={page.now}
        />
      ) : decided.length ? (
        <div className="space-y-2 text-[13px]">
          <DecidedRequests requests={decided} />
          {ticket.status === "needs_human" && may.approve ? (
            <div className="border-t border-slate-100 pt-3">
              <p className="mb-2 text-slate-600">
                The customer has not been answered yet: write the reply yourself, or run the agent again.
              </p>
              <ResolveForm ticketId={ticket.id} draft={page.handReplyStart} />
            </div>
          ) : null}
        </div>
      ) : (
        <NothingWaiting page={page} />
      )}
    </Card>
  );
}

/** Why no decision waits (a bypass, a run that ended without a draft, no run yet), and a reply by hand. */
function NothingWaiting({ page }: { page: TTicketView }) {
  const { ticket } = page;
  return (
    <div className="space-y-3">
      <p className="text-[13px] text-slate-600">
        {ticket.admission === "bypassed"
          ? "This ticket bypassed the agent: a person handles it from the start."
          : page.runs.length
            ? "No decision is waiting: the latest run did not end with a draft to approve."
            : "The agent has not run on this ticket yet."}
      </p>
      {ticket.status !== "resolved" && page.may.approve ? <ResolveForm ticketId={ticket.id} draft={page.handReplyStart} /> : null}
    </div>
  );
}

export function EvidenceCard({ passages }: { passages: readonly TPassage[] }) {
  if (!passages.length) return null;
  return (
    <Card title="Evidence" id="evidence-heading">
      <ul className="space-y-2">
        {passages.map((p) => (
          <li key={p.chunkId} className="text-[13px]">
            <Link href={citationHref(p.citation, p.chunkId)} className="font-mono text-[12px] text-indigo-700 hover:underline">
              {p.citation}
            </Link>{" "}
            <span className="text-slate-500">{p.heading}</span>
            <p className="text-slate-700">{p.text}</p>
          </li>
        ))}
      </ul>
    </Card>
  );
}
