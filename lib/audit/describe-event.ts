// An audit event in words, for the audit page and a ticket's page: who did what to what, and why when
// the event says. Pure: the caller resolves people's names (loadAuditNames) and the currencies of the
// orders and proposals an event names without one (loadAuditCurrencies), each in one query for a
// whole list. An action this table does not know is still shown, by its name: the raw event is always
// one click away.
import type { TAuditAction } from "../contracts/audit-actions";
import { formatMoney } from "../contracts/money";
import { REASON_LABELS, isStopReason } from "../contracts/reason-codes";
import { describeSettingsChange } from "./describe-settings-change";

export interface TDescribable {
  action: string;
  actorType: string;
  actorId?: string | null;
  /** The acting person's name when the caller has it; otherwise it is looked up in `names`. */
  actorName: string | null;
  subjectType: string;
  subjectId?: string | null;
  ticket: { number: number } | null;
  inputs: unknown;
  /** Names of the people the event mentions (its actor, an assignee, the person changed), by id. */
  names?: ReadonlyMap<string, string>;
  /** Currencies of the orders and refund proposals the event names, by id: the refund executor and
   * the auto-approval record an amount without its currency. */
  currencies?: ReadonlyMap<string, string>;
}

const ACTOR_WORDS: Record<string, string> = { agent: "The agent", system: "The system", api: "The helpdesk (intake API)", user: "Someone" };

// The system's workers by the ids they record (lib/approvals, lib/agent: above this layer, so their
// ids are matched here as written). Any other system actor is "The system".
const SYSTEM_WORKERS: Record<string, string> = {
  "refund-worker": "The refund worker",
  "refund-reconciler": "The refund reconciler",
  "approval-sweeper": "The approval sweeper",
  "run-sweeper": "The run sweeper",
  "document-scheduler": "The policy documents' schedule",
};

const SOURCE_WORDS: Record<string, string> = { seed: "the demo data" };

type TInputs = Record<string, unknown>;
interface TWords {
  /** "ticket #12", or what else the event is about. */
  ticket: string;
  /** A person mentioned by id, by name; "nobody" for no id. */
  person: (id: unknown) => string;
  /** The person the event is about (a user.* event's subject), by name. */
  subject: string;
  /** Whether the person the event is about is the one who acted. */
  self: boolean;
  /** The subject's name, when the names know it. */
  subjectName: string | null;
  subjectId: unknown;
  /** Cents with their currency: the one given, or that of the order or proposal `ofId` names. */
  money: (cents: unknown, currency?: unknown, ofId?: unknown) => string | null;
}

const text = (v: unknown) => (typeof v === "string" && v ? v : null);
const reason = (code: unknown) =>
  typeof code === "string" ? (isStopReason(code) ? `${REASON_LABELS[code].toLowerCase()} (${code})` : code) : null;
const count = (n: unknown, one: string, many: string) => (typeof n === "number" ? `${n} ${n === 1 ? one : many}` : null);
const role = (r: unknown) => String(r ?? "?").toLowerCase();
const kindOf = (i: TInputs) => text(i.kind) ?? "request";

/** The sentence's verb phrase per action: what was done, to what, and any why the inputs carry. */
const PHRASES: Record<TAuditAction, (i: TInputs, w: TWords) => string> = {
  "ticket.created": (i) => {
    const ticket = text(i.externalId) ? `a ticket (${text(i.externalId)})` : "a ticket";
    // A person types a ticket in; the helpdesk delivers one, under its own name as the actor.
    if (i.source === "form") return `entered ${ticket} in the new-ticket form`;
    if (i.source === "api") return `delivered ${ticket}`;
    return `received ${ticket} from ${SOURCE_WORDS[text(i.source) ?? ""] ?? text(i.source) ?? "somewhere"}`;
  },
  "ticket.resolved_by_hand": (_i, w) => `resolved ${w.ticket} by hand, writing the reply`,
  "ticket.assigned": (i, w) => (i.how === "claim" ? `claimed ${w.ticket}` : `assigned ${w.ticket} to ${w.person(i.assigneeId)}`),
  "ticket.unassigned": (i, w) =>
    `unassigned ${w.ticket} from ${w.person(i.previousAssigneeId)}${i.why === "user_deactivated" ? ", who was deactivated" : ""}`,
  "message.received": (i, w) =>
    `received a follow-up from the customer on ${w.ticket}${text(i.messageId) ? ` (message ${text(i.messageId)})` : ""}`,
  "message.note_added": (_i, w) => `added an internal note to ${w.ticket}`,
  "run.started": (i, w) => `started a ${i.mode === "simulate" ? "simulated " : ""}run on ${w.ticket}`,
  "run.bypassed": (_i, w) => `kept ${w.ticket} away from the agent (bypassed at intake)`,
  "run.stopped": (i, w) => `stopped its run on ${w.ticket}: ${reason(i.reason) ?? String(i.status ?? "")}`,
  "run.interrupted": (_i, w) => `marked the run on ${w.ticket} interrupted (its process stopped renewing its lease)`,
  "tool.called": (i, w) => `called ${text(i.action) ?? "a tool"} on ${w.ticket}`,
  "decision.blocked": (i, w) =>
    `refused the agent's ${text(i.action) ?? "step"} on ${w.ticket}${text(i.detail) ? `: ${text(i.detail)}` : ""}`,
  "proposal.recorded": (i, w) => `recorded a refund proposal${of(w.money(i.amountCents, i.currency))} on ${w.ticket}`,
  "batch.started": (i, w) => {
    const doing = i.kind === "assign" ? "assigning" : i.mode === "simulate" ? "simulating" : "running the agent on";
    return `started bulk work: ${doing} ${String(i.tickets ?? "?")} ticket(s)${i.kind === "assign" ? ` to ${w.person(i.assigneeId)}` : ""}`;
  },
  "approval.approved": (i, w) => {
    const approved =
      Number(i.approvalsRequired) > 1 ? `gave approval ${Number(i.approvals)} of ${Number(i.approvalsRequired)} to` : "approved";
    return `${approved} the ${kindOf(i)} on ${w.ticket}${i.replyEdited ? ", editing the reply" : ""}${note(i)}`;
  },
  "approval.edited": (i, w) => {
    const [from, to] = [w.money(i.fromCents, i.currency), w.money(i.toCents, i.currency)];
    return `lowered the refund on ${w.ticket}${from && to ? ` from ${from} to ${to}` : ""}, replacing the request with one of its own digest`;
  },
  "approval.rejected": (i, w) => `rejected the ${kindOf(i)} on ${w.ticket}${note(i)}`,
  "approval.auto_approved": (i, w) =>
    `auto-approved a refund${of(w.money(i.amountCents, i.currency, w.subjectId))} on ${w.ticket}, within the autonomy dial`,
  "approval.superseded": (i, w) =>
    i.reason === "customer_follow_up"
      ? `set aside the waiting request on ${w.ticket}: the customer wrote again (customer_follow_up)`
      : i.reason === "reviewer_feedback"
        ? `set aside the waiting request on ${w.ticket}: sent back with feedback (reviewer_feedback)`
        : `replaced the waiting request on ${w.ticket} with a newer run's`,
  "approval.sent_back": (i, w) => `sent the draft on ${w.ticket} back to the agent with feedback: “${text(i.note) ?? ""}”`,
  "approval.expired": (_i, w) => `expired the waiting request on ${w.ticket}`,
  "reply.released": (_i, w) => `sent the reply on ${w.ticket} to the outbox`,
  "reply.delivered": (i, w) => `delivered the reply on ${w.ticket} through ${text(i.channel) ?? "?"} (attempt ${Number(i.attempts)})`,
  "reply.delivery_failed": (i, w) =>
    `gave up delivering the reply on ${w.ticket} through ${text(i.channel) ?? "?"}: ${text(i.reason) ?? "?"} (attempt ${Number(i.attempts)})`,
  "reply.withdrawn": (_i, w) => `withdrew the reply on ${w.ticket} before it was sent: its refund failed at the payment provider`,
  "refund.executed": (i, w) => {
    const amount = w.money(i.amountCents, i.currency, i.orderId) ?? "?";
    return `refunded ${amount} on order ${text(i.orderId) ?? "?"} (${w.ticket})${i.mode === "simulate" ? ", simulated" : ""}`;
  },
  "refund.duplicate_ignored": (_i, w) => `ignored a repeated execution of the refund on ${w.ticket}: it was made once already`,
  "refund.blocked_not_approved": (i, w) => `refused to execute the refund on ${w.ticket}: it is not approved${detail(i)}`,
  "refund.blocked_approval_mismatch": (i, w) => `refused to execute the refund on ${w.ticket}: it is not what was approved${detail(i)}`,
  "refund.blocked_approval_expired": (_i, w) => `refused to execute the refund on ${w.ticket}: the approval came after its expiry`,
  "refund.blocked_exceeds_refundable": (i, w) =>
    `refused to execute the refund on ${w.ticket}: it exceeds what the order has left to refund${detail(i)}`,
  "refund.blocked_order_unavailable": (i, w) =>
    `refused to execute the refund on ${w.ticket}: the order's source no longer has the order${detail(i)}`,
  "refund.reenqueued": (_i, w) => `queued the approved refund on ${w.ticket} again: it had no outcome and no job`,
  "customer.upserted": (i) => `${i.created ? "added" : "updated"} the customer ${text(i.customerId) ?? "?"} from the orders API`,
  "legal_hold.placed": (i, w) => `placed a legal hold on ${i.on === "ticket" ? w.ticket : `customer ${text(w.subjectId) ?? "?"}`}`,
  "legal_hold.lifted": (i, w) => `lifted the legal hold on ${i.on === "ticket" ? w.ticket : `customer ${text(w.subjectId) ?? "?"}`}`,
  "customer.export_requested": (_i, w) => `requested the data export of customer ${text(w.subjectId) ?? "?"}`,
  "customer.export_downloaded": (_i, w) => `downloaded the data export of customer ${text(w.subjectId) ?? "?"}`,
  "customer.erased": (i, w) =>
    `erased the personal data of customer ${text(w.subjectId) ?? "?"} (${count(i.tickets, "ticket", "tickets") ?? "no tickets"})`,
  "retention.applied": (i) =>
    `erased what its retention period had passed: ${i.kind === "traces" ? count(i.count, "run's traces", "runs' traces") : count(i.count, "ticket", "tickets")}`,
  "order.upserted": (i) => {
    const refunds =
      typeof i.newRefunds === "number" && i.newRefunds > 0 ? `, with ${count(i.newRefunds, "refund", "refunds")} made elsewhere` : "";
    return `${i.created ? "added" : "updated"} the order ${text(i.orderId) ?? "?"} from the orders API${refunds}`;
  },
  "order.synced": (i) => `read the order ${text(i.orderId) ?? "?"} from ${text(i.source) ?? "its source"}`,
  "refund.provider_state": (i, w) =>
    `recorded the refund on ${w.ticket} at ${text(i.provider) ?? "the provider"} as ${text(i.state) ?? "?"}${i.failureReason ? ` (${text(i.failureReason)})` : ""}`,
  "refund.provider_event": (i) => `took ${text(i.provider) ?? "a provider"}'s event ${text(i.type) ?? "?"} (${text(i.eventId) ?? "?"})`,
  "settings.changed": (i) => describeSettingsChange(i),
  "document.imported": (i) =>
    `${i.outcome === "updated" ? "updated the draft" : "imported a draft"} ${citation(i)}${text(i.file) ? ` from ${text(i.file)}` : ""}`,
  "document.draft_saved": (i) => `edited the draft ${citation(i)}`,
  "document.submitted": (i) => `sent ${citation(i)} to review`,
  "document.withdrawn": (i) => `took ${citation(i)} back from review to draft`,
  "document.published": (i) =>
    `published ${citation(i)}, written by ${text(i.authorName) ?? "the demo data"}${text(i.effectiveAt) ? `, in effect from ${text(i.effectiveAt)}` : ""}`,
  "document.publish_refused": (i) =>
    `was refused publishing ${citation(i)}: ${text(i.reason)?.replace(/\.$/, "") ?? text(i.code) ?? "see the event"}`,
  "document.retired": (i) =>
    `retired ${text(i.docKey) ?? "a document"}${Array.isArray(i.versions) && i.versions.length ? ` (version ${i.versions.join(", ")})` : ""}${i.why === "superseded" ? ", superseded by a later version now in effect" : ""}`,
  "document.evaluation_started": (i) => `asked for an evaluation of ${citation(i)}`,
  "document.evaluated": (i) =>
    `evaluated ${citation(i)}: ${typeof i.regressions === "number" ? `${i.regressions} regression${i.regressions === 1 ? "" : "s"}` : "see the event"}`,
  "document.evaluation_failed": (i) => `could not evaluate ${citation(i)}: ${text(i.error) ?? "see the event"}`,
  "document.regression_acknowledged": (i) =>
    `acknowledged ${typeof i.regressions === "number" ? `the ${i.regressions} regression${i.regressions === 1 ? "" : "s"}` : "the regressions"} of ${citation(i)}${note(i)}`,
  "release.decided": (i) => `decided a release: ${text(i.decision) ?? "see the event"}`,
  "evaluation.started": (i) => `started an evaluation of ${text(i.dataset) ?? "a dataset"}`,
  "evaluation.failed": (i) => `an evaluation failed: ${text(i.error) ?? "see the event"}`,
  "annotation.assigned": (i) =>
    text(i.assigneeId) ? "assigned an agent run for annotation" : "gave back an agent run waiting for annotation",
  "run.annotated": (i) => `judged an agent run ${text(i.verdict) ?? "?"}${text(i.reason) ? ` (${text(i.reason)})` : ""}`,
  "episode.saved": (i) => `saved an agent run as the candidate episode ${text(i.episodeId) ?? "?"}`,
  "episode.promoted": () => "promoted a candidate episode into the team dataset",
  "episode.discarded": () => "discarded a candidate episode",
  "shadow.recorded": (_i, w) => `recorded shadow evidence on ${w.ticket}`,
  "auth.signed_in": () => "signed in",
  "auth.sign_in_locked": (_i, w) => `locked sign-in for ${w.subject} after repeated failures`,
  "auth.signed_out": () => "signed out",
  "auth.sign_in_burst_noticed": () => "noticed a burst of failed sign-ins",
  "auth.sso_policy_changed": (i) =>
    i.requireSso === true
      ? "required sign-in through the identity provider (one break-glass admin keeps a password)"
      : "changed the identity provider sign-in settings",
  "user.created": (i, w) => `added ${newcomer(i, w)}${text(i.role) ? ` as ${role(i.role)}` : ""}`,
  "user.created_at_sign_in": (i, w) => `added ${newcomer(i, w)} at their first sign-in${text(i.role) ? ` as ${role(i.role)}` : ""}`,
  "user.identity_bound": (_i, w) => `bound ${w.subject} to their account at the identity provider`,
  "user.invited": (i, w) => `invited ${newcomer(i, w)}${text(i.role) ? ` as ${role(i.role)}` : ""}`,
  "user.password_link_issued": (_i, w) => `issued a set-password link for ${w.subject}`,
  "user.password_set": (_i, w) => `${w.self ? "set their password" : `set the password of ${w.subject}`} with a link`,
  "user.role_changed": (i, w) => `changed ${w.subject}’s role from ${role(i.from)} to ${role(i.to)}`,
  "user.deactivated": (i, w) => `deactivated ${w.subject}${deactivationEffects(i)}`,
  "user.reactivated": (_i, w) => `reactivated ${w.subject}`,
  "user.sessions_revoked": (_i, w) => (w.self ? "ended every session of their own" : `ended every session of ${w.subject}`),
  "job.retried": (i) => `retried a failed ${text(i.queue) ?? ""} job`,
  "audit.exported": (i) =>
    `exported the audit trail${text(i.from) || text(i.to) ? ` from ${text(i.from) ?? "the start"} to ${text(i.to) ?? "now"}` : ""}`,
};

/** A policy version as citations name it: return-policy-us@2. */
const citation = (i: TInputs) => `${text(i.docKey) ?? "a document"}${typeof i.version === "number" ? `@${i.version}` : ""}`;
const of = (amount: string | null) => (amount ? ` of ${amount}` : "");
const note = (i: TInputs) => (text(i.note) ? `: “${text(i.note)}”` : "");
const detail = (i: TInputs) => (text(i.detail) ? ` (${text(i.detail)})` : "");

/** A person just added: by the name the event resolves, else the name or email it recorded. */
function newcomer(i: TInputs, w: TWords): string {
  return w.subjectName ?? text(i.name) ?? text(i.email) ?? "a person";
}

function deactivationEffects(i: TInputs): string {
  const effects = [count(i.sessionsEnded, "session", "sessions"), count(i.ticketsUnassigned, "ticket", "tickets")];
  const [sessions, tickets] = effects.map((e) => (e && !e.startsWith("0 ") ? e : null));
  const parts = [sessions ? `ending ${sessions}` : null, tickets ? `unassigning ${tickets}` : null].filter(Boolean);
  return parts.length ? `, ${parts.join(" and ")}` : "";
}

/** Who acted, as a reader says it: the person's name, the worker's role, or the kind of actor. */
export function describeAuditActor(e: TDescribable): string {
  if (e.actorName) return e.actorName;
  if (e.actorType === "user" && e.actorId && e.names?.has(e.actorId)) return e.names.get(e.actorId)!;
  // An auto-approval is the policy's decision within the dial, recorded under the run's id.
  if (e.actorType === "system" && e.action === "approval.auto_approved") return "The policy";
  if (e.actorType === "system" && e.actorId && SYSTEM_WORKERS[e.actorId]) return SYSTEM_WORKERS[e.actorId]!;
  return ACTOR_WORDS[e.actorType] ?? e.actorType;
}

function wordsFor(e: TDescribable): TWords {
  const known = (id: unknown) => (typeof id === "string" ? (e.names?.get(id) ?? null) : null);
  const person = (id: unknown) => (typeof id === "string" ? (known(id) ?? "a person no longer known") : "nobody");
  const subjectName = e.subjectType === "user" ? known(e.subjectId) : null;
  const money = (cents: unknown, currency?: unknown, ofId?: unknown) => {
    if (typeof cents !== "number") return null;
    const code = text(currency) ?? (typeof ofId === "string" ? e.currencies?.get(ofId) : undefined);
    return code ? formatMoney(cents, code) : `${(cents / 100).toFixed(2)} (currency not recorded)`;
  };
  return {
    ticket: e.ticket ? `ticket #${e.ticket.number}` : e.subjectType === "ticket" ? "a ticket" : `the ${e.subjectType}`,
    person,
    subject: e.subjectType === "user" ? person(e.subjectId) : "a person",
    self: e.subjectType === "user" && !!e.subjectId && e.subjectId === e.actorId,
    subjectName,
    subjectId: e.subjectId,
    money,
  };
}

/** What was done, without who did it: "approved the refund on ticket #12: “Photo checks out”";
 * null for an action this table does not know. */
export function describeAuditAction(e: TDescribable): string | null {
  const phrase = PHRASES[e.action as TAuditAction];
  const inputs = (e.inputs && typeof e.inputs === "object" ? e.inputs : {}) as TInputs;
  return phrase ? phrase(inputs, wordsFor(e)) : null;
}

/** "Riley Reviewer approved the refund on ticket #12: “Photo checks out”". */
export function describeAuditEvent(e: TDescribable): string {
  const what = describeAuditAction(e);
  return what ? `${describeAuditActor(e)} ${what}.` : `${describeAuditActor(e)}: ${e.action}.`;
}
