// Messages from a helpdesk or a mailbox: each starts a ticket or follows one up, decided in one place
// (receiveHelpdeskMessage) whatever the connector. A message on a thread we know takes the same path
// as a follow-up to the intake API (receiveFollowUp: supersede a pending request, reopen a resolved
// ticket, once per message id); any other starts a ticket through the intake's own path (insertTicket:
// the built-in classifier routes and signs, admission is decided and audited with the ticket), with the
// thread the reply must go back to. Each connector is signed its own way – Zendesk with its webhook
// signature, the email service's JSON like the intake API (Standard Webhooks, the intake secrets) – and
// read by one path (receiveHelpdesk). The message that started a ticket, delivered again with the same
// body, answers 200 and writes nothing; with another body, 409, nothing changed.
import { z } from "zod";
import { canonicalJson, sha256Hex } from "../contracts/canonical";
import { db as defaultDb, isUniqueViolation, type Db } from "../db";
import { env, intakeSecrets } from "../env";
import { insertTicket } from "../intake/create-ticket";
import { outsideText, parseStrictFields, readJsonBody, type TDeliveryAnswer, type TSignedDelivery } from "../intake/signed-delivery";
import { verifyWebhook } from "../intake/webhook-signature";
import { verifyZendeskSignature } from "../intake/zendesk-signature";
import { findEmailThread, insertThread } from "../delivery/store/delivery-store";
import { followUpAnswer, receiveFollowUp } from "./receive-follow-up";

export const MAX_HELPDESK_BYTES = 64 * 1024;

const ZZendeskId = (what: string) =>
  z.union([z.number().int().positive(), z.string().regex(/^\d{1,20}$/, `must be Zendesk's ${what} id`)]).transform(String);

/** What the Zendesk webhook posts (its JSON body, set up with placeholders: README, "Connecting your helpdesk and email"). */
export const ZZendeskTicket = z.strictObject({
  ticketId: ZZendeskId("ticket"),
  /** The comment this delivery carries: a later one on a known ticket is a follow-up, once per id. */
  commentId: ZZendeskId("comment").nullish(),
  subject: outsideText(300),
  body: outsideText(20_000, { multiline: true }),
  requesterEmail: z.email().max(254),
});

const ZMessageIdHeader = z
  .string()
  .max(998)
  .regex(/^<[^<>\s]+>$/, "must be the message's Message-ID, <…>");

/** What an email service posts for a message it received (the text stripped of quoted replies). */
export const ZInboundEmail = z.strictObject({
  from: z.email().max(254),
  subject: outsideText(300),
  text: outsideText(20_000, { multiline: true }),
  messageId: ZMessageIdHeader,
  inReplyTo: z.string().max(998).nullish(),
  /** The References header as sent: the Message-IDs of the thread, oldest first. */
  references: z.string().max(20_000).nullish(),
});

type TThread = { channel: "zendesk" | "email"; externalTicketId?: string | null; messageId?: string | null; subject?: string | null };

/** One message from a helpdesk, as every connector hands it to the decision. */
export interface THelpdeskMessage {
  /** The ticket it would start: its externalId, the same on every delivery of this message (or of this Zendesk ticket). */
  externalId: string;
  /** What the externalId names: the helpdesk's ticket (every message on it shares it) or this one message. */
  externalIdNames: "thread" | "message";
  subject: string;
  body: string;
  customerEmail: string;
  /** What the idempotency of the message that starts a ticket is judged on. */
  payload: unknown;
  thread: TThread;
  /** The helpdesk's id of this message; null when it has none (it can then only start a ticket). */
  messageId: string | null;
  /** The ticket an earlier message of the same conversation started, when the helpdesk names one. */
  followsUp?: (client: Db) => Promise<string | null>;
}

/** The one decision for every connector: a follow-up on a known thread, a repeat, or a new ticket. */
export async function receiveHelpdeskMessage(m: THelpdeskMessage, client: Db = defaultDb()): Promise<TDeliveryAnswer> {
  const payloadHash = sha256Hex(canonicalJson(m.payload));
  for (let attempt = 0; ; attempt++) {
    const started = await client.ticket.findUnique({ where: { externalId: m.externalId }, include: { helpdeskThread: true } });
    if (started?.payloadHash === payloadHash) {
      // Written again on a repeat: a crash between the ticket and its thread is mended by the helpdesk's retry.
      await insertThread(client, { ticketId: started.id, ...m.thread });
      return { status: 200, body: ticketAnswer(started) };
    }
    const ticketId = started?.id ?? (await m.followsUp?.(client)) ?? null;
    if (ticketId) {
      // The message that started the ticket, now with other words, is not a follow-up: it is refused.
      const startedByThisMessage =
        started && (m.externalIdNames === "message" || (m.messageId !== null && started.helpdeskThread?.messageId === m.messageId));
      if (!m.messageId || startedByThisMessage) return mismatch(m.externalId);
      const result = await receiveFollowUp({
        ticket: { id: ticketId },
        messageId: m.messageId,
        body: m.body,
        channel: m.thread.channel,
        client,
      });
      return followUpAnswer(result, m.messageId);
    }
    try {
      return await startTicket(client, m, payloadHash);
    } catch (error) {
      // A concurrent delivery of the same message started it: decide again, once, against that ticket.
      if (!isUniqueViolation(error) || attempt > 0) throw error;
    }
  }
}

async function startTicket(client: Db, m: THelpdeskMessage, payloadHash: string): Promise<TDeliveryAnswer> {
  const ticket = await insertTicket(
    { subject: m.subject, body: m.body, customerEmail: m.customerEmail, source: "api", externalId: m.externalId, payloadHash },
    { type: "api", id: m.thread.channel },
    client,
  );
  await insertThread(client, { ticketId: ticket.id, ...m.thread });
  return { status: 201, body: ticketAnswer({ ...ticket, externalId: m.externalId }) };
}

function ticketAnswer(ticket: { id: string; number: number; externalId: string | null; admission: string; status: string }) {
  return { ticketId: ticket.id, number: ticket.number, externalId: ticket.externalId, admission: ticket.admission, status: ticket.status };
}

function mismatch(externalId: string): TDeliveryAnswer {
  return {
    status: 409,
    body: { error: "idempotency_mismatch", message: `${externalId} was already delivered with a different body; nothing was changed.` },
  };
}

/** A connector: how its deliveries are signed and read, and what message each one carries. */
interface TConnector<S extends z.ZodType> {
  /** What the body is, for a 415's words ("the Zendesk ticket"). */
  what: string;
  /** null: signed as it must be; else why not (refused 401, nothing read further). */
  signatureProblem(delivery: TSignedDelivery, text: string): string | null;
  schema: S;
  message(value: z.infer<S>): THelpdeskMessage;
}

/** The one path every connector's delivery takes: body, signature, fields, then the decision. */
export async function receiveHelpdesk<S extends z.ZodType>(
  connector: TConnector<S>,
  delivery: TSignedDelivery,
  client: Db = defaultDb(),
): Promise<TDeliveryAnswer> {
  const body = readJsonBody(delivery, { maxBytes: MAX_HELPDESK_BYTES, what: connector.what });
  if (!body.ok) return body.response;
  const problem = connector.signatureProblem(delivery, body.text);
  if (problem) return { status: 401, body: { error: "invalid_signature", message: problem } };
  const parsed = parseStrictFields(connector.schema, body.text);
  if (!parsed.ok) return parsed.response;
  return receiveHelpdeskMessage(connector.message(parsed.value), client);
}

type TReceiveConfig = { toleranceSeconds: number; now?: Date; client?: Db };

export function receiveZendeskTicket(
  delivery: TSignedDelivery,
  config: TReceiveConfig & { secret: string | undefined } = {
    secret: env().ZENDESK_WEBHOOK_SECRET,
    toleranceSeconds: env().INTAKE_SIGNATURE_TOLERANCE_SECONDS,
  },
): Promise<TDeliveryAnswer> {
  const { secret } = config;
  // Nothing can be verified without the secret: refused like a bad signature.
  if (!secret)
    return Promise.resolve({
      status: 401,
      body: { error: "not_configured", message: "Zendesk intake is off: set ZENDESK_WEBHOOK_SECRET." },
    });
  const connector: TConnector<typeof ZZendeskTicket> = {
    what: "the Zendesk ticket",
    signatureProblem: (d, text) => {
      const verdict = verifyZendeskSignature({
        secret,
        headers: d.headers,
        body: text,
        toleranceSeconds: config.toleranceSeconds,
        now: config.now,
      });
      return verdict.ok ? null : verdict.message;
    },
    schema: ZZendeskTicket,
    message: (t) => ({
      // The Zendesk ticket is the thread: a later comment on it is a follow-up of the ticket it started.
      externalId: `zendesk-${t.ticketId}`,
      externalIdNames: "thread",
      subject: t.subject,
      body: t.body,
      customerEmail: t.requesterEmail,
      payload: t,
      thread: { channel: "zendesk", externalTicketId: t.ticketId, messageId: t.commentId ?? null, subject: t.subject },
      messageId: t.commentId ?? null,
    }),
  };
  return receiveHelpdesk(connector, delivery, config.client);
}

/** The Message-IDs an email answers, nearest first: In-Reply-To, then References from the newest. */
export function answeredMessageIds(m: { inReplyTo?: string | null; references?: string | null }): string[] {
  const ids = [m.inReplyTo ?? "", ...(m.references ?? "").split(/\s+/).reverse()].flatMap((s) => s.match(/<[^<>\s]+>/g) ?? []);
  return [...new Set(ids)].slice(0, 100);
}

export function receiveInboundEmail(
  delivery: TSignedDelivery,
  config: TReceiveConfig & { secrets: readonly string[] } = {
    secrets: intakeSecrets(),
    toleranceSeconds: env().INTAKE_SIGNATURE_TOLERANCE_SECONDS,
  },
): Promise<TDeliveryAnswer> {
  const connector: TConnector<typeof ZInboundEmail> = {
    what: "the email",
    signatureProblem: (d, text) => {
      const verdict = verifyWebhook({ ...config, headers: d.headers, payload: text });
      return verdict.ok ? null : verdict.message;
    },
    schema: ZInboundEmail,
    message: (m) => ({
      // The Message-ID names the message; its hash fits the externalId's alphabet.
      externalId: `email-${sha256Hex(m.messageId).slice(0, 40)}`,
      externalIdNames: "message",
      subject: m.subject,
      body: m.text,
      customerEmail: m.from,
      payload: m,
      thread: { channel: "email", messageId: m.messageId, subject: m.subject },
      messageId: m.messageId,
      followsUp: (client) => findEmailThread(client, answeredMessageIds(m)),
    }),
  };
  return receiveHelpdesk(connector, delivery, config.client);
}
