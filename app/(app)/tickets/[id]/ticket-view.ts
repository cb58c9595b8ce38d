// Everything the ticket page shows, for the person looking at it. What can be read together is: the
// policy beside the ticket, then the customer's history, the people to assign and the waiting
// request's facts beside each other, each needing only the ticket's detail.
import { loadDecisionFacts } from "@/lib/approvals/load-decidable";
import type { TSessionUser } from "@/lib/auth/session";
import { mayUse } from "@/lib/contracts/roles";
import { llmAvailability } from "@/lib/llm/provider";
import { loadPolicySettings } from "@/lib/policy/settings";
import { listAssignees } from "@/lib/queue/list-assignees";
import { loadCustomerHistory } from "@/lib/queue/load-customer-history";
import { loadTicketDetail, type TTicketDetail } from "@/lib/queue/load-ticket-detail";
import { loadConversation } from "@/lib/tickets/conversation";
import { decidedRequests } from "./decided-requests";
import { decisionView } from "./decision-view";

type TRun = TTicketDetail["runs"][number];
export type TPassage = { citation: string; chunkId: string; text: string; heading: string };
export type TTicketView = NonNullable<Awaited<ReturnType<typeof loadTicketView>>>;

/** A hand reply starts from the agent's draft only when its run proposed no refund, live or
 * simulated: a reply written by hand moves no money, so "we have refunded …" would be a promise
 * nobody keeps. */
export function handReplyStartOf(run: Pick<TRun, "draft" | "proposals"> | undefined): string {
  return run && run.proposals.length === 0 ? (run.draft ?? "") : "";
}

function passagesOf(run: TRun | undefined): TPassage[] {
  const evidence = run?.evidence as { passages?: TPassage[] } | null | undefined;
  return evidence?.passages ?? [];
}

/** The model planner, offered by name when it is configured, else with why it is not. */
function modelChoice() {
  const llm = llmAvailability();
  return llm.available ? { available: true, name: llm.config.model } : { available: false, reason: llm.reason };
}

/** The ticket page's data, or null when there is no such ticket. */
export async function loadTicketView(ticketId: string, user: TSessionUser) {
  const [detail, policy] = await Promise.all([loadTicketDetail({ ticketId }), loadPolicySettings()]);
  if (!detail) return null;
  const { ticket, runs, approvals, order } = detail;
  const may = { assign: mayUse(user.role, "assign"), approve: mayUse(user.role, "approve"), runAgent: mayUse(user.role, "runAgent") };
  const pending = approvals.find((a) => a.status === "pending");
  const [history, people, facts, conversation] = await Promise.all([
    loadCustomerHistory({ ticket, order }),
    may.assign && ticket.status !== "resolved" ? listAssignees() : [],
    pending ? loadDecisionFacts(pending.id) : null,
    loadConversation(ticket.id),
  ]);
  const focusRun = (pending && runs.find((r) => r.id === pending.runId)) ?? runs.find((r) => r.mode === "live") ?? runs[0];
  const now = new Date();
  return {
    ...detail,
    history,
    conversation,
    people,
    policy,
    may,
    pending,
    now,
    decided: decidedRequests(approvals),
    passages: passagesOf(focusRun),
    handReplyStart: handReplyStartOf(focusRun),
    // What this person may do with the waiting request: the decision rules' answer, read the way a
    // decision reads it (decision-view.ts), so the page offers exactly what would be taken.
    view: facts ? decisionView(facts, user, now) : null,
    model: modelChoice(),
  };
}
