// A signed event from the payment provider (Stripe: refund.created, refund.updated, refund.failed),
// taken once. Verified first with the client's own webhook helper – a forged, altered or stale event
// is refused and nothing is read or written – then its refund's state is recorded on the ledger row
// (recordProviderReport: forward only, with what the move means for the ticket and the reply), then
// the event is marked taken. A replayed event id is answered as taken and changes nothing.
//
// Order matters for crashes: the report before the mark. A crash between them leaves the event
// untaken; the provider's retry records the same state again, which moves nothing, and marks it.
import { db as defaultDb, type Db } from "../db";
import { prismaSqlTx } from "../db/driver";
import { recordAuditEvent } from "../audit/record-audit-event";
import { loadPaymentSettings } from "../payments/payment-settings";
import { refundFromStripe, refundOfEvent, verifyStripeEvent } from "../payments/stripe-provider";
import { takeEvent } from "../payments/store/payment-event-store";
import { recordProviderReport } from "./settle-refund";

export const PROVIDER_EVENT_ACTOR = { type: "api", id: "stripe-events" } as const;

export type TEventAnswer =
  | { status: "taken"; eventId: string; moved: boolean }
  | { status: "replayed"; eventId: string }
  | { status: "ignored"; eventId: string; why: string }
  | { status: "refused"; why: "not_configured" | "invalid_signature" };

export async function takeStripeEvent(input: { rawBody: string; signature: string | null; client?: Db }): Promise<TEventAnswer> {
  const client = input.client ?? defaultDb();
  const secret = (await loadPaymentSettings(client)).stripe.webhookSecret;
  if (!secret) return { status: "refused", why: "not_configured" };
  let event;
  try {
    event = verifyStripeEvent(input.rawBody, input.signature ?? "", secret);
  } catch {
    return { status: "refused", why: "invalid_signature" };
  }
  if (await client.paymentEvent.findUnique({ where: { provider_id: { provider: "stripe", id: event.id } } }))
    return { status: "replayed", eventId: event.id };

  const refund = refundOfEvent(event);
  const entry = refund
    ? await client.ledgerEntry.findFirst({
        where: {
          provider: "stripe",
          OR: [
            { providerRefundId: refund.id },
            // A refund whose create answer we never recorded (lost, or a crash): known by its approval.
            ...(refund.metadata?.countersign_approval
              ? [{ approvalRequestId: refund.metadata.countersign_approval, providerRefundId: null }]
              : []),
          ],
        },
        select: { id: true },
      })
    : null;
  let moved = false;
  if (entry && refund) {
    const report = { ...refundFromStripe(refund), source: "event" as const };
    const recorded = await recordProviderReport(client, {
      entryId: entry.id,
      report: { providerRefundId: report.id, state: report.state, failureReason: report.failureReason, source: report.source },
      actor: PROVIDER_EVENT_ACTOR,
    });
    moved = recorded.moved;
  }
  const taken = await markTaken(client, { id: event.id, type: event.type, refundId: refund?.id ?? null, moved });
  if (!taken) return { status: "replayed", eventId: event.id };
  if (!entry)
    return { status: "ignored", eventId: event.id, why: refund ? "no ledger row for this refund" : `not a refund event (${event.type})` };
  return { status: "taken", eventId: event.id, moved };
}

/** The event marked taken, with its audit event; false when a concurrent delivery took it first. */
function markTaken(client: Db, e: { id: string; type: string; refundId: string | null; moved: boolean }): Promise<boolean> {
  return client.$transaction(async (tx) => {
    if (!(await takeEvent(prismaSqlTx(tx), { provider: "stripe", id: e.id, type: e.type, providerRefundId: e.refundId }))) return false;
    await recordAuditEvent(tx, {
      actorType: PROVIDER_EVENT_ACTOR.type,
      actorId: PROVIDER_EVENT_ACTOR.id,
      action: "refund.provider_event",
      subjectType: "payment_event",
      subjectId: e.id,
      ticketId: null,
      inputs: { provider: "stripe", eventId: e.id, type: e.type, providerRefundId: e.refundId, moved: e.moved },
    });
    return true;
  });
}
