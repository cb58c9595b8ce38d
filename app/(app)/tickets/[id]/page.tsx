import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { RunBudgets } from "@/components/budget-bar";
import { Card, Fact } from "@/components/card";
import { citationHref } from "@/components/cited-text";
import { KeyboardShortcuts } from "@/components/keyboard";
import { ReasonText, StatusBadge } from "@/components/status-badge";
import { TraceTimeline } from "@/components/trace-timeline";
import { mayUse } from "@/lib/contracts/roles";
import { loadDecisionFacts } from "@/lib/approvals/load-decidable";
import { requireRole } from "@/lib/auth/session";
import { findTicket } from "@/lib/tickets/find-ticket";
import { loadCustomerHistory } from "@/lib/queue/load-customer-history";
import { listRunModes } from "@/lib/tickets/list-run-modes";
import { loadTicketDetail, type TTicketDetail } from "@/lib/queue/load-ticket-detail";
import { formatMoney } from "@/lib/agent/rule-drafter";
import { llmAvailability } from "@/lib/llm/provider";
import { loadPolicySettings } from "@/lib/policy/settings";
import { PendingRequest } from "./pending-request";
import { decisionView } from "./decision-view";
import { ResolveForm } from "./resolve-form";
import { AssignForm } from "./assign-form";
import { listAssignees } from "@/lib/queue/list-assignees";
import { mayHoldTickets } from "@/lib/queue/assign-ticket";
import { RunButtons } from "./run-buttons";
import { CustomerHistory } from "./customer-history";
import { DecidedRequests, decidedRequests } from "./decided-requests";
import { AuditEvents } from "./audit-events";
import { Breadcrumbs } from "@/components/breadcrumbs";

export const metadata: Metadata = { title: "Ticket" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type TRun = TTicketDetail["runs"][number];
type TPassage = { citation: string; chunkId: string; text: string; heading: string };

/** A hand reply starts from the agent's draft only when that draft promised no refund: a reply
 * written by hand moves no money, so "we have refunded …" would be a promise nobody keeps. */
function handReplyStartOf(run: TRun | undefined): string {
  return run && !run.proposals.some((p) => !p.simulated) ? (run.draft ?? "") : "";
}

function passagesOf(run: TRun | undefined): TPassage[] {
  const evidence = run?.evidence as { passages?: TPassage[] } | null | undefined;
  return evidence?.passages ?? [];
}

/** `previous`: the run before it on this ticket, to compare it with. */
function RunSummary({ run, previous }: { run: TRun; previous?: TRun }) {
  return (
    <article aria-label={`Run of ${run.startedAt.toISOString()}`} className="rounded-lg border border-slate-200 bg-white">
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-4 py-2 text-[13px]">
        {run.mode === "simulate" ? (
          <span className="rounded bg-violet-100 px-1.5 py-0.5 text-[11px] font-semibold uppercase tracking-wide text-violet-800">
            Simulated
          </span>
        ) : null}
        <StatusBadge status={run.status} />
        <ReasonText reason={run.reason} />
        <span className="ml-auto text-[12px] text-slate-500">
          {run.planner} planner · {run.agentVersion} · {run.startedAt.toISOString().replace("T", " ").slice(0, 19)} UTC
          {run.startedBy ? ` · by ${run.startedBy.name}` : ""}
        </span>
      </header>
      <RunBudgets run={run} />
      <div className="px-4 pb-3">
        <TraceTimeline
          steps={run.traceEvents}
          label={`Trace of the run of ${run.startedAt.toISOString().replace("T", " ").slice(0, 19)} UTC, one card per step`}
        />
        {previous ? (
          <p className="mt-2 text-[12px]">
            <Link href={`/tickets/${run.ticketId}/compare?a=${previous.id}&b=${run.id}`} className="text-indigo-700 hover:underline">
              Compare with the run before it
            </Link>
          </p>
        ) : null}
      </div>
    </article>
  );
}

export default async function TicketPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireRole("tickets");
  const { id } = await params;
  if (!UUID.test(id)) {
    // /tickets/42 is ticket #42 (the number people say out loud); a helpdesk's external id works too.
    const ref = decodeURIComponent(id);
    const found = ref.length <= 200 ? await findTicket(ref) : null;
    if (!found) notFound();
    redirect(`/tickets/${found.id}`);
  }
  const detail = await loadTicketDetail({ ticketId: id });
  if (!detail) notFound();
  const { ticket, runs, runCount, approvals, auditEvents, order } = detail;
  const history = await loadCustomerHistory({ ticket, order });
  const mayAssign = mayUse(user.role, "assign");
  const people = mayAssign && ticket.status !== "resolved" ? await listAssignees() : [];

  const llm = llmAvailability();
  const modelChoice = llm.available ? { available: true, name: llm.config.model } : { available: false, reason: llm.reason };
  const pending = approvals.find((a) => a.status === "pending");
  const decided = decidedRequests(approvals);
  const focusRun = (pending && runs.find((r) => r.id === pending.runId)) ?? runs.find((r) => r.mode === "live") ?? runs[0];
  const passages = passagesOf(focusRun);
  // What this person may do with the waiting request: the decision rules' answer, read the way a
  // decision reads it (decision-view.ts), so the page offers exactly what would be taken.
  const now = new Date();
  const facts = pending ? await loadDecisionFacts(pending.id) : null;
  const view = facts ? decisionView(facts, user, now) : null;
  const policy = await loadPolicySettings();

  return (
    <div className="space-y-4">
      <KeyboardShortcuts scope="ticket" />
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
        {mayUse(user.role, "runAgent") ? <RunButtons ticketId={ticket.id} modes={listRunModes(ticket)} model={modelChoice} /> : null}
      </div>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <div className="min-w-0 space-y-4 lg:col-span-2">
          <Card title={view ? view.heading : "Decision"} id="decision-heading">
            {pending ? (
              <PendingRequest
                pending={pending}
                view={view}
                passages={passages}
                policy={policy}
                ticketId={ticket.id}
                mayRunAgent={mayUse(user.role, "runAgent")}
                now={now}
              />
            ) : decided.length ? (
              <div className="space-y-2 text-[13px]">
                <DecidedRequests requests={decided} />
                {ticket.status === "needs_human" && mayUse(user.role, "approve") ? (
                  <div className="border-t border-slate-100 pt-3">
                    <p className="mb-2 text-slate-600">
                      The customer has not been answered yet: write the reply yourself, or run the agent again.
                    </p>
                    <ResolveForm ticketId={ticket.id} draft={handReplyStartOf(focusRun)} />
                  </div>
                ) : null}
              </div>
            ) : (
              <div className="space-y-3">
                <p className="text-[13px] text-slate-600">
                  {ticket.admission === "bypassed"
                    ? "This ticket bypassed the agent: a person handles it from the start."
                    : runs.length
                      ? "No decision is waiting: the latest run did not end with a draft to approve."
                      : "The agent has not run on this ticket yet."}
                </p>
                {ticket.status !== "resolved" && mayUse(user.role, "approve") ? (
                  <ResolveForm ticketId={ticket.id} draft={handReplyStartOf(focusRun)} />
                ) : null}
              </div>
            )}
          </Card>

          {passages.length ? (
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
          ) : null}
        </div>

        <div className="min-w-0 space-y-4">
          <Card title="Assignee" id="assignee-heading">
            {mayAssign ? (
              <AssignForm
                ticketId={ticket.id}
                assignee={ticket.assignee}
                me={user.id}
                mayClaim={mayHoldTickets(user.role)}
                resolved={ticket.status === "resolved"}
                people={people}
              />
            ) : (
              <p className="text-[13px] text-slate-800">{ticket.assignee?.name ?? "Unassigned"}</p>
            )}
          </Card>
          <Card title="Ticket" id="ticket-heading">
            <p className="whitespace-pre-wrap wrap-anywhere text-[13px] text-slate-800">{ticket.body}</p>
            <dl className="mt-3 divide-y divide-slate-100 border-t border-slate-100">
              <Fact label="Customer">{ticket.customerEmail}</Fact>
              <Fact label="Order">
                {order
                  ? `${order.id} · ${order.item} · ${formatMoney(order.amountCents, order.currency)}`
                  : ticket.orderRef
                    ? `${ticket.orderRef} (not found)`
                    : "–"}
              </Fact>
              {order?.customer.flagged ? <Fact label="Account">Flagged</Fact> : null}
              <Fact label="Source">{ticket.source}</Fact>
              <Fact label="Received">{ticket.createdAt.toISOString().replace("T", " ").slice(0, 16)} UTC</Fact>
            </dl>
          </Card>
          <CustomerHistory history={history} />
          <Card title="Admission" id="admission-heading">
            <dl className="divide-y divide-slate-100">
              <Fact label="Result">
                <code className="font-mono">{ticket.admission}</code>
              </Fact>
              <Fact label="Reason">
                <ReasonText reason={ticket.admissionReason} />
              </Fact>
              <Fact label="Route">
                <code className="font-mono">{ticket.route}</code>
              </Fact>
              <Fact label="Bundle">
                <code className="font-mono">{ticket.bundleVersion}</code>
              </Fact>
            </dl>
          </Card>
        </div>
      </div>

      <section aria-labelledby="runs-heading" className="space-y-2">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="runs-heading" className="text-[13px] font-semibold text-slate-900">
            Agent runs {runCount > runs.length ? `(latest ${runs.length} of ${runCount})` : `(${runCount})`}
          </h2>
          {runCount >= 2 ? (
            <Link href={`/tickets/${ticket.id}/compare`} className="text-[13px] font-medium text-indigo-700 hover:underline">
              Compare runs
            </Link>
          ) : null}
        </div>
        {runs.length ? (
          runs.map((run, i) => <RunSummary key={run.id} run={run} previous={runs[i + 1]} />)
        ) : (
          <p className="text-[13px] text-slate-500">No runs yet.</p>
        )}
      </section>

      <AuditEvents events={auditEvents} ticket={ticket} />
    </div>
  );
}
