// An audit event in words, for the audit page: who did what to what, and why when the event says.
// Pure: the event as searchAudit answers it, with people's names resolved. An action this table does
// not know is still shown, by its name: the raw event is always one click away.
import type { TAuditAction } from "../contracts/audit-actions";
import { REASON_LABELS, isStopReason } from "../contracts/reason-codes";

export interface TDescribable {
  action: string;
  actorType: string;
  actorName: string | null;
  subjectType: string;
  ticket: { number: number } | null;
  inputs: unknown;
  /** Names of the people the inputs mention (an assignee, a person changed), by id. */
  names?: ReadonlyMap<string, string>;
}

const ACTOR_WORDS: Record<string, string> = { agent: "The agent", system: "The system", api: "The helpdesk (intake API)", user: "Someone" };

type TInputs = Record<string, unknown>;
const text = (v: unknown) => (typeof v === "string" && v ? v : null);
const money = (cents: unknown) => (typeof cents === "number" ? `${(cents / 100).toFixed(2)}` : null);
const reason = (code: unknown) => (typeof code === "string" ? (isStopReason(code) ? `${REASON_LABELS[code].toLowerCase()} (${code})` : code) : null);

/** The sentence's verb phrase per action: what was done, to what, and any why the inputs carry. */
const PHRASES: Record<TAuditAction, (i: TInputs, e: TDescribable, ticket: string, person: (id: unknown) => string) => string> = {
  "ticket.created": (i) => `received ${ticketWord(i)} from ${text(i.source) === "api" ? "the helpdesk" : (text(i.source) ?? "a form")}`,
  "ticket.resolved_by_hand": (_i, _e, t) => `resolved ${t} by hand, writing the reply`,
  "ticket.assigned": (i, _e, t, person) => (i.how === "claim" ? `claimed ${t}` : `assigned ${t} to ${person(i.assigneeId)}`),
  "ticket.unassigned": (i, _e, t, person) => `unassigned ${t} from ${person(i.previousAssigneeId)}${i.why === "user_deactivated" ? ", who was deactivated" : ""}`,
  "run.started": (i, _e, t) => `started a ${i.mode === "simulate" ? "simulated " : ""}run on ${t}`,
  "run.bypassed": (_i, _e, t) => `kept ${t} away from the agent (bypassed at intake)`,
  "run.stopped": (i, _e, t) => `stopped its run on ${t}: ${reason(i.reason) ?? String(i.status ?? "")}`,
  "run.interrupted": (_i, _e, t) => `marked the run on ${t} interrupted (its process stopped renewing its lease)`,
  "tool.called": (i, _e, t) => `called ${text(i.action) ?? "a tool"} on ${t}`,
  "decision.blocked": (i, _e, t) => `refused the agent's ${text(i.action) ?? "step"} on ${t}${text(i.detail) ? `: ${text(i.detail)}` : ""}`,
  "proposal.recorded": (i, _e, t) => `recorded a refund proposal${money(i.amountCents) ? ` of ${money(i.amountCents)}` : ""} on ${t}`,
  "batch.started": (i, _e, _t, person) => `started bulk work: ${i.kind === "assign" ? "assigning" : i.mode === "simulate" ? "simulating" : "running the agent on"} ${String(i.tickets ?? "?")} ticket(s)${i.kind === "assign" ? ` to ${person(i.assigneeId)}` : ""}`,
  "approval.approved": (i, _e, t) =>
    `${Number(i.approvalsRequired) > 1 ? `gave approval ${Number(i.approvals)} of ${Number(i.approvalsRequired)} to` : "approved"} the ${text(i.kind) ?? "request"} on ${t}${i.replyEdited ? ", editing the reply" : ""}${text(i.note) ? `: “${text(i.note)}”` : ""}`,
  "approval.edited": (i, _e, t) => `lowered the refund on ${t}${money(i.fromCents) && money(i.toCents) ? ` from ${money(i.fromCents)} to ${money(i.toCents)}` : ""}, replacing the request with one of its own digest`,
  "approval.rejected": (i, _e, t) => `rejected the ${text(i.kind) ?? "request"} on ${t}${text(i.note) ? `: “${text(i.note)}”` : ""}`,
  "approval.auto_approved": (i, _e, t) => `auto-approved a refund${money(i.amountCents) ? ` of ${money(i.amountCents)}` : ""} on ${t}, within the autonomy dial`,
  "approval.superseded": (_i, _e, t) => `replaced the waiting request on ${t} with a newer run's`,
  "approval.expired": (_i, _e, t) => `expired the waiting request on ${t}`,
  "reply.released": (_i, _e, t) => `sent the reply on ${t} to the outbox`,
  "refund.executed": (i, _e, t) => `refunded ${money(i.amountCents) ?? "?"} on order ${text(i.orderId) ?? "?"} (${t})${i.mode === "simulate" ? ", simulated" : ""}`,
  "refund.duplicate_ignored": (_i, _e, t) => `ignored a repeated execution of the refund on ${t}: it was made once already`,
  "refund.blocked_not_approved": (i, _e, t) => `refused to execute the refund on ${t}: it is not approved${text(i.detail) ? ` (${text(i.detail)})` : ""}`,
  "refund.blocked_approval_mismatch": (i, _e, t) => `refused to execute the refund on ${t}: it is not what was approved${text(i.detail) ? ` (${text(i.detail)})` : ""}`,
  "refund.blocked_approval_expired": (_i, _e, t) => `refused to execute the refund on ${t}: the approval came after its expiry`,
  "refund.blocked_exceeds_refundable": (i, _e, t) => `refused to execute the refund on ${t}: it exceeds what the order has left to refund${text(i.detail) ? ` (${text(i.detail)})` : ""}`,
  "refund.reenqueued": (_i, _e, t) => `queued the approved refund on ${t} again: it had no outcome and no job`,
  "settings.changed": () => "changed the policy settings",
  "release.decided": (i) => `decided a release: ${text(i.decision) ?? "see the event"}`,
  "shadow.recorded": (_i, _e, t) => `recorded shadow evidence on ${t}`,
  "auth.signed_in": () => "signed in",
  "auth.sign_in_locked": () => "locked sign-in for an account after repeated failures",
  "auth.signed_out": () => "signed out",
  "auth.sign_in_burst_noticed": () => "noticed a burst of failed sign-ins",
  "user.created": (i) => `added ${text(i.name) ?? text(i.email) ?? "a person"}${text(i.role) ? ` as ${String(i.role).toLowerCase()}` : ""}`,
  "user.invited": (i) => `invited ${text(i.name) ?? text(i.email) ?? "a person"}${text(i.role) ? ` as ${String(i.role).toLowerCase()}` : ""}`,
  "user.password_link_issued": () => "issued a set-password link",
  "user.password_set": () => "set their password with a link",
  "user.role_changed": (i) => `changed a role from ${String(i.from ?? "?").toLowerCase()} to ${String(i.to ?? "?").toLowerCase()}`,
  "user.deactivated": (i) => `deactivated a person${typeof i.ticketsUnassigned === "number" ? ` (${i.ticketsUnassigned} ticket(s) unassigned)` : ""}`,
  "user.reactivated": () => "reactivated a person",
  "user.sessions_revoked": () => "ended every session of a person",
  "job.retried": (i) => `retried a failed ${text(i.queue) ?? ""} job`,
  "audit.exported": (i) => `exported the audit trail${text(i.from) || text(i.to) ? ` from ${text(i.from) ?? "the start"} to ${text(i.to) ?? "now"}` : ""}`,
};

function ticketWord(i: TInputs): string {
  return text(i.externalId) ? `a ticket (${text(i.externalId)})` : "a ticket";
}

/** "Riley Reviewer approved the refund on ticket #12: “Photo checks out”". */
export function describeAuditEvent(e: TDescribable): string {
  const who = e.actorName ?? ACTOR_WORDS[e.actorType] ?? e.actorType;
  const inputs = (e.inputs && typeof e.inputs === "object" ? e.inputs : {}) as TInputs;
  const ticket = e.ticket ? `ticket #${e.ticket.number}` : e.subjectType === "ticket" ? "a ticket" : `the ${e.subjectType}`;
  const person = (id: unknown) => (typeof id === "string" ? (e.names?.get(id) ?? "a person") : "nobody");
  const phrase = PHRASES[e.action as TAuditAction];
  return phrase ? `${who} ${phrase(inputs, e, ticket, person)}.` : `${who}: ${e.action}.`;
}
