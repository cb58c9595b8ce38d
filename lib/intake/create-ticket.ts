// Creates a ticket with its admission decided and recorded, in one transaction with its audit event.
import { randomUUID } from "node:crypto";
import type { TicketRoute, TicketSource } from "../../generated/prisma/enums";
import { db, type DbTx } from "../db";
import { intakeBundleKey } from "../env";
import { recordAuditEvent, type ActorType } from "../audit/record-audit-event";
import { admitTicket } from "./admit-ticket";
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
}

export interface TActor {
  type: ActorType;
  id?: string | null;
}

export async function createTicket(input: TNewTicket, actor: TActor, tx?: DbTx) {
  const run = async (t: DbTx) => {
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
    const admission = admitTicket({ ...routed, ticketId: claimId }, { bundleVersion: BUILTIN_BUNDLE_VERSION, key: bundleKey });
    await recordAuditEvent(t, {
      actorType: actor.type,
      actorId: actor.id,
      action: "ticket.created",
      subjectType: "ticket",
      subjectId: id,
      ticketId: id,
      inputs: { source: input.source, externalId: input.externalId ?? null, route: routed.route, bundleVersion: routed.bundleVersion, risks },
      policyDecision: admission,
    });
    return t.ticket.create({
      data: {
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
        status: admission.admission === "bypassed" ? "bypassed" : "open",
        reason: admission.reason,
        ...(input.createdAt ? { createdAt: input.createdAt } : {}),
      },
    });
  };
  return tx ? run(tx) : db().$transaction(run);
}
