// Tickets from a helpdesk or a mailbox, through the intake's own path (insertTicket: the built-in
// classifier routes and signs, admission is decided and audited with the ticket), with the thread the
// reply must go back to. Each kind is signed its own way: Zendesk with its webhook signature
// (zendesk-signature.ts), the email service's JSON like the intake API (Standard Webhooks, the intake
// secrets). Idempotent on the helpdesk's id: a repeat with the same body answers 200 with the ticket
// and writes nothing; the same id with another body is 409, nothing changed.
import { z } from "zod";
import { canonicalJson, sha256Hex } from "../contracts/canonical";
import { db as defaultDb, isUniqueViolation, type Db } from "../db";
import { env, intakeSecrets } from "../env";
import { insertTicket } from "../intake/create-ticket";
import { outsideText, parseStrictFields, readJsonBody, type TDeliveryAnswer, type TSignedDelivery } from "../intake/signed-delivery";
import { verifyWebhook } from "../intake/webhook-signature";
import { insertThread } from "./store/delivery-store";
import { verifyZendeskSignature } from "./zendesk-signature";

export const MAX_HELPDESK_BYTES = 64 * 1024;

/** What the Zendesk webhook posts (its JSON body, set up with placeholders: README, "Connecting your helpdesk and email"). */
export const ZZendeskTicket = z.strictObject({
  ticketId: z.union([z.number().int().positive(), z.string().regex(/^\d{1,20}$/, "must be Zendesk's ticket id")]).transform(String),
  subject: outsideText(300),
  body: outsideText(20_000, { multiline: true }),
  requesterEmail: z.email().max(254),
});

/** What an email service posts for a message it received (the text stripped of quoted replies). */
export const ZInboundEmail = z.strictObject({
  from: z.email().max(254),
  subject: outsideText(300),
  text: outsideText(20_000, { multiline: true }),
  messageId: z
    .string()
    .max(998)
    .regex(/^<[^<>\s]+>$/, "must be the message's Message-ID, <…>"),
  inReplyTo: z.string().max(998).nullish(),
});

type TThread = { channel: "zendesk" | "email"; externalTicketId?: string | null; messageId?: string | null; subject?: string | null };

async function storeFromHelpdesk(
  client: Db,
  t: { externalId: string; subject: string; body: string; customerEmail: string; payload: unknown; thread: TThread; actorId: string },
): Promise<TDeliveryAnswer> {
  const payloadHash = sha256Hex(canonicalJson(t.payload));
  let ticket: { id: string; number: number; admission: string; status: string };
  let status = 201;
  try {
    ticket = await insertTicket(
      { subject: t.subject, body: t.body, customerEmail: t.customerEmail, source: "api", externalId: t.externalId, payloadHash },
      { type: "api", id: t.actorId },
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const existing = await client.ticket.findUnique({ where: { externalId: t.externalId } });
    if (!existing) throw error;
    if (existing.payloadHash !== payloadHash)
      return {
        status: 409,
        body: {
          error: "idempotency_mismatch",
          message: `${t.externalId} was already delivered with a different body; nothing was changed.`,
        },
      };
    ticket = existing;
    status = 200;
  }
  // Written after the ticket, and again on a repeat: a crash between the two is mended by the helpdesk's retry.
  await insertThread(client, { ticketId: ticket.id, ...t.thread });
  return {
    status,
    body: { ticketId: ticket.id, number: ticket.number, externalId: t.externalId, admission: ticket.admission, status: ticket.status },
  };
}

export async function receiveZendeskTicket(
  delivery: TSignedDelivery,
  config: { secret: string | undefined; toleranceSeconds: number; now?: Date; client?: Db } = {
    secret: env().ZENDESK_WEBHOOK_SECRET,
    toleranceSeconds: env().INTAKE_SIGNATURE_TOLERANCE_SECONDS,
  },
): Promise<TDeliveryAnswer> {
  // Nothing can be verified without the secret: refused like a bad signature.
  if (!config.secret)
    return { status: 401, body: { error: "not_configured", message: "Zendesk intake is off: set ZENDESK_WEBHOOK_SECRET." } };
  const body = readJsonBody(delivery, { maxBytes: MAX_HELPDESK_BYTES, what: "the Zendesk ticket" });
  if (!body.ok) return body.response;
  const verdict = verifyZendeskSignature({
    secret: config.secret,
    headers: delivery.headers,
    body: body.text,
    toleranceSeconds: config.toleranceSeconds,
    now: config.now,
  });
  if (!verdict.ok) return { status: 401, body: { error: "invalid_signature", message: verdict.message } };
  const parsed = parseStrictFields(ZZendeskTicket, body.text);
  if (!parsed.ok) return parsed.response;
  const z = parsed.value;
  return storeFromHelpdesk(config.client ?? defaultDb(), {
    externalId: `zendesk-${z.ticketId}`,
    subject: z.subject,
    body: z.body,
    customerEmail: z.requesterEmail,
    payload: z,
    thread: { channel: "zendesk", externalTicketId: z.ticketId, subject: z.subject },
    actorId: "zendesk",
  });
}

export async function receiveInboundEmail(
  delivery: TSignedDelivery,
  config: { secrets: readonly string[]; toleranceSeconds: number; now?: Date; client?: Db } = {
    secrets: intakeSecrets(),
    toleranceSeconds: env().INTAKE_SIGNATURE_TOLERANCE_SECONDS,
  },
): Promise<TDeliveryAnswer> {
  const body = readJsonBody(delivery, { maxBytes: MAX_HELPDESK_BYTES, what: "the email" });
  if (!body.ok) return body.response;
  const verdict = verifyWebhook({
    secrets: config.secrets,
    headers: delivery.headers,
    payload: body.text,
    toleranceSeconds: config.toleranceSeconds,
    now: config.now,
  });
  if (!verdict.ok) return { status: 401, body: { error: "invalid_signature", message: verdict.message } };
  const parsed = parseStrictFields(ZInboundEmail, body.text);
  if (!parsed.ok) return parsed.response;
  const m = parsed.value;
  return storeFromHelpdesk(config.client ?? defaultDb(), {
    // The Message-ID names the message; its hash fits the externalId's alphabet.
    externalId: `email-${sha256Hex(m.messageId).slice(0, 40)}`,
    subject: m.subject,
    body: m.text,
    customerEmail: m.from,
    payload: m,
    thread: { channel: "email", messageId: m.messageId, subject: m.subject },
    actorId: "email",
  });
}
