// Creates a ticket with its admission decided and recorded, in one transaction with its audit event.
import { randomUUID } from "node:crypto";
import type { Admission, TicketRoute, TicketSource, TicketStatus } from "../../generated/prisma/enums";
import { db, driverOf, type Db, type DbTx } from "../db";
import { preparedSql } from "../db/driver";
import { intakeBundleKey } from "../env";
import { auditAppendArgument, recordAuditEvent, type ActorType, type TAuditInput } from "../audit/record-audit-event";
import { appendAuditCte } from "../audit/store/audit-store";
import { insertTicketRow, insertTicketWithAuditSql } from "../tickets/store/ticket-store";
import { admitTicket, type TAdmission } from "./admit-ticket";
import { BUILTIN_BUNDLE_VERSION, classifyTicket } from "./builtin-bundle";
import { routeClaimId, signRoute } from "./route-signature";

export interface TNewTicket {
  subject: string;
  body: string;
  customerEmail: string;
  orderRef?: string | null;
  source: TicketSource;
  externalId?: string | null;
  payloadHash?: string | null;
  createdAt?: Date;
  /** A route minted elsewhere (the helpdesk's classifier, an older bundle, a test). Absent: the
   * built-in bundle classifies and signs. Its signature covers routeClaimId(ticket). */
  routed?: { route: TicketRoute; bundleVersion: string; signature: string | null };
  /** How an intake API delivery was signed, recorded on the ticket's audit event: the Standard
   * Webhooks message id, or the deprecated body signature (no id). */
  delivery?: { webhookId: string | null; signature: "standard_webhooks" | "legacy" };
}

export interface TActor {
  type: ActorType;
  id?: string | null;
}

/** A new ticket's id, route and admission, and the audit event that records them. */
function admitNew(input: TNewTicket, actor: TActor) {
  const bundleKey = intakeBundleKey();
  const id = randomUUID();
  const claimId = routeClaimId({ id, externalId: input.externalId });
  let routed = input.routed;
  let risks: string[] = [];
  if (!routed) {
    const classification = classifyTicket(input);
    risks = classification.risks;
    const claim = { ticketId: claimId, route: classification.route, bundleVersion: BUILTIN_BUNDLE_VERSION };
    routed = { route: claim.route, bundleVersion: claim.bundleVersion, signature: signRoute(claim, bundleKey) };
  }
  const admission: TAdmission = admitTicket({ ...routed, ticketId: claimId }, { bundleVersion: BUILTIN_BUNDLE_VERSION, key: bundleKey });
  const event: TAuditInput = {
    actorType: actor.type,
    actorId: actor.id,
    action: "ticket.created",
    subjectType: "ticket",
    subjectId: id,
    ticketId: id,
    inputs: {
      source: input.source,
      externalId: input.externalId ?? null,
      route: routed.route,
      bundleVersion: routed.bundleVersion,
      risks,
      ...(input.delivery ? { webhookId: input.delivery.webhookId, signature: input.delivery.signature } : {}),
    },
    policyDecision: admission,
  };
  const status: TicketStatus = admission.admission === "bypassed" ? "bypassed" : "open";
  return { id, routed, admission, status, event };
}

export async function createTicket(input: TNewTicket, actor: TActor, tx?: DbTx) {
  const run = async (t: DbTx) => {
    const { id, routed, admission, status, event } = admitNew(input, actor);
    await recordAuditEvent(t, event);
    return insertTicketRow(t, {
      id,
      externalId: input.externalId ?? null,
      payloadHash: input.payloadHash ?? null,
      source: input.source,
      subject: input.subject,
      body: input.body,
      customerEmail: input.customerEmail,
      orderRef: input.orderRef ?? null,
      route: routed.route,
      bundleVersion: routed.bundleVersion,
      routeSignature: routed.signature,
      admission: admission.admission,
      admissionReason: admission.reason,
      status,
      reason: admission.reason,
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    });
  };
  return tx ? run(tx) : db().$transaction(run);
}

/** What a ticket created by insertTicket answers with. */
export interface TInsertedTicket {
  id: string;
  number: number;
  externalId: string | null;
  admission: Admission;
  admissionReason: string | null;
  status: TicketStatus;
}

// The audit event is appended first (the materialized CTE runs before the row it feeds is inserted),
// and as one statement both commit or neither does: a repeated externalId's unique violation takes the
// event back with it. Timestamps are sent as UTC ISO text, as the audit function reads its `at`.
const INSERT_TICKET_SQL = preparedSql(insertTicketWithAuditSql(appendAuditCte("$1")));

/**
 * createTicket's ticket and audit event as one statement straight on the driver: one round trip and
 * no transaction to open and close, for the intake API, where this write is most of a request's cost.
 * The same admission and the same event as createTicket; a unique violation (a repeated externalId)
 * is thrown as the driver reports it (isUniqueViolation) and writes nothing.
 */
export async function insertTicket(input: TNewTicket, actor: TActor, client: Db = db()): Promise<TInsertedTicket> {
  const { id, routed, admission, status, event } = admitNew(input, actor);
  const at = (input.createdAt ?? new Date()).toISOString();
  const [row] = await driverOf(client).rows<Omit<TInsertedTicket, "number"> & { number: string }>(INSERT_TICKET_SQL, [
    auditAppendArgument([event]),
    id,
    input.externalId ?? null,
    input.payloadHash ?? null,
    input.source,
    input.subject,
    input.body,
    input.customerEmail,
    input.orderRef ?? null,
    routed.route,
    routed.bundleVersion,
    routed.signature,
    admission.admission,
    admission.reason,
    status,
    at,
  ]);
  return { ...row!, number: Number(row!.number) };
}
