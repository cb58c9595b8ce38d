import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { Breadcrumbs } from "@/components/breadcrumbs";
import { KeyboardShortcuts } from "@/components/keyboard";
import { ReasonText, StatusBadge } from "@/components/status-badge";
import { requireRole } from "@/lib/auth/session";
import { findTicket } from "@/lib/tickets/find-ticket";
import { listRunModes } from "@/lib/tickets/list-run-modes";
import { AgentRuns } from "./agent-runs";
import { AuditEvents } from "./audit-events";
import { Conversation } from "./conversation";
import { CustomerHistory } from "./customer-history";
import { DecisionCard, EvidenceCard } from "./decision-card";
import { LiveRunPanel } from "./live-run";
import { RunButtons } from "./run-buttons";
import { AdmissionCard, AssigneeCard, TicketCard } from "./ticket-facts";
import { loadTicketView, type TTicketView } from "./ticket-view";

export const metadata: Metadata = { title: "Ticket" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** /tickets/42 is ticket #42 (the number people say out loud); a helpdesk's external id works too. */
async function redirectToTicket(id: string): Promise<never> {
  const ref = decodeURIComponent(id);
  const found = ref.length <= 200 ? await findTicket(ref) : null;
  if (!found) notFound();
  redirect(`/tickets/${found.id}`);
}

export default async function TicketPage({ params }: { params: Promise<{ id: string }> }) {
  const [user, { id }] = await Promise.all([requireRole("tickets"), params]);
  if (!UUID.test(id)) await redirectToTicket(id);
  const page = await loadTicketView(id, user);
  if (!page) notFound();
  const { ticket } = page;
  return (
    <div className="space-y-4">
      <KeyboardShortcuts scope="ticket" />
      <TicketHeader page={page} />
      <LiveRunPanel ticketId={ticket.id} running={runningRun(page)} />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <div className="min-w-0 space-y-4 lg:col-span-2">
          <DecisionCard page={page} />
          <EvidenceCard passages={page.passages} />
          <Conversation ticketId={ticket.id} messages={page.conversation} mayNote={page.may.approve} />
        </div>
        <div className="min-w-0 space-y-4">
          <AssigneeCard page={page} user={user} />
          <TicketCard ticket={ticket} order={page.order} />
          <CustomerHistory history={page.history} />
          <AdmissionCard ticket={ticket} />
        </div>
      </div>
      <AgentRuns
        ticketId={ticket.id}
        runs={page.runs}
        runCount={page.runCount}
        annotator={{ me: user.id, people: user.role === "LEAD" || user.role === "ADMIN" ? page.people : null }}
      />
      <AuditEvents events={page.auditEvents} ticket={ticket} />
    </div>
  );
}

/** A run still working on the ticket, which the page follows from its first render. */
const runningRun = (page: TTicketView) => page.runs.find((run) => run.status === "running")?.id ?? null;

/** The ticket's number and subject, where it stands, who holds it, and the agent's run buttons. */
function TicketHeader({ page }: { page: TTicketView }) {
  const { ticket } = page;
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <Breadcrumbs trail={[{ href: "/", label: "Queue" }]} current={`Ticket #${ticket.number}`} />
        <h1 className="text-lg font-semibold tracking-tight wrap-anywhere text-slate-900">
          #{ticket.number} {ticket.subject}
        </h1>
        <div className="mt-1 flex flex-wrap items-center gap-2 text-[13px]">
          <StatusBadge status={ticket.status} />
          <ReasonText reason={ticket.reason} />
          <span className="text-slate-500">·</span>
          <span className={ticket.assignee ? "text-slate-800" : "text-slate-500"}>
            {ticket.assignee ? `Assigned to ${ticket.assignee.name}` : "Unassigned"}
          </span>
        </div>
      </div>
      {page.may.runAgent ? (
        <RunButtons ticketId={ticket.id} modes={listRunModes(ticket)} model={page.model} running={runningRun(page)} />
      ) : null}
    </div>
  );
}
