// Each channel against a real counterpart on loopback: the fake Zendesk API through node-zendesk, an
// SMTP server from `smtp-server` read back with `mailparser`, an HTTP receiver checking the Standard
// Webhooks signature. Each reply is released with its delivery and the delivery's job in one commit.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { startFakeZendesk, type TFakeZendesk } from "../../testing/fake-zendesk/server";
import { approvedReply } from "../../testing/replies";
import { seedDemo } from "../../prisma/seed/demo";
import { verifyWebhook } from "../intake/webhook-signature";
import { QUEUE_SCHEMA } from "../jobs/queue";
import { emailChannel } from "./channels/email";
import { webhookChannel } from "./channels/webhook";
import { deliveryTag, zendeskChannel } from "./channels/zendesk";
import { deliverReply } from "./deliver-reply";
import { receiveFollowUp } from "../conversations/receive-follow-up";

const testDb = useTestDb(seedDemo);
let zendesk: TFakeZendesk;
beforeAll(async () => void (zendesk = await startFakeZendesk()));
afterAll(async () => zendesk.close());
// A fault a test injected and did not use is not the next test's.
beforeEach(() => zendesk.failNext(0, 500));

/** The delivery's audited final states: with its id, channel and attempt, and nothing personal. */
async function deliveryEvents(deliveryId: string) {
  const events = await testDb().client.auditEvent.findMany({
    where: { subjectType: "delivery", subjectId: deliveryId },
    orderBy: { seq: "asc" },
  });
  return events.map((e) => ({ action: e.action, actorId: e.actorId, inputs: e.inputs }));
}

const channelOf = (z: TFakeZendesk) => zendeskChannel({ url: z.url, email: z.email, token: z.token, timeoutMs: 10_000 });

describe("a reply delivered to Zendesk", () => {
  it("is released with a pending delivery and its job, and posted once as a public comment", async () => {
    const { client } = testDb();
    const fake = zendesk.addTicket({ id: 4101, subject: "Where is my refund?", requesterEmail: "c@example.com", body: "Hello?" });
    const { message, delivery } = await approvedReply(client, { channel: "zendesk", externalTicketId: "4101" });
    expect(delivery).toMatchObject({ state: "pending", attempts: 0, disclosed: false });
    const jobs = await client.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${QUEUE_SCHEMA}.job WHERE name = 'reply-deliver' AND id = $1::uuid`,
      delivery.id,
    );
    expect(jobs[0]!.n).toBe(1);

    expect(await deliverReply({ deliveryId: delivery.id, client, channel: channelOf(zendesk) })).toBe("delivered");
    expect(fake.comments.slice(1)).toEqual([{ id: expect.any(Number), body: message.body, public: true }]);
    expect(fake.tags).toEqual([deliveryTag(delivery.id)]);
    expect(await client.replyDelivery.findUnique({ where: { id: delivery.id } })).toMatchObject({
      state: "delivered",
      channel: "zendesk",
      attempts: 1,
      externalRef: "zendesk:4101",
    });
    // A late retry of a delivered reply sends nothing.
    expect(await deliverReply({ deliveryId: delivery.id, client, channel: channelOf(zendesk) })).toBe("skipped:delivered");
    expect(fake.comments).toHaveLength(2);
    // Audited once, with the delivery's id: no address, no message, no reference of the other side's.
    const events = await deliveryEvents(delivery.id);
    expect(events).toEqual([
      { action: "reply.delivered", actorId: "reply-deliver", inputs: { deliveryId: delivery.id, channel: "zendesk", attempts: 1 } },
    ]);
    const ticket = await client.ticket.findUniqueOrThrow({ where: { id: message.ticketId } });
    expect(JSON.stringify(events)).not.toContain(ticket.customerEmail);
  });

  it("records a failed attempt and is retried; the last failed attempt leaves it failed with the reason", async () => {
    const { client } = testDb();
    const fake = zendesk.addTicket({ id: 4102, subject: "Refund", requesterEmail: "c@example.com", body: "Hi" });
    const { delivery } = await approvedReply(client, { channel: "zendesk", externalTicketId: "4102" });
    zendesk.failNext(1, 503);
    await expect(deliverReply({ deliveryId: delivery.id, client, channel: channelOf(zendesk) })).rejects.toThrow("Zendesk answered 503");
    expect(await client.replyDelivery.findUnique({ where: { id: delivery.id } })).toMatchObject({
      state: "pending",
      attempts: 1,
      lastError: "Zendesk answered 503.",
    });
    // An attempt that will be retried is no final state: nothing audited yet.
    expect(await deliveryEvents(delivery.id)).toEqual([]);
    zendesk.failNext(1, 500);
    await expect(deliverReply({ deliveryId: delivery.id, client, channel: channelOf(zendesk), lastAttempt: true })).rejects.toThrow();
    expect(await client.replyDelivery.findUnique({ where: { id: delivery.id } })).toMatchObject({
      state: "failed",
      failureReason: "retries_exhausted",
      attempts: 2,
    });
    expect(fake.comments).toHaveLength(1);
    expect(await deliveryEvents(delivery.id)).toEqual([
      {
        action: "reply.delivery_failed",
        actorId: "reply-deliver",
        inputs: { deliveryId: delivery.id, channel: "zendesk", attempts: 2, reason: "retries_exhausted" },
      },
    ]);
  });

  it("fails for good, without retry, when the ticket has no Zendesk ticket or Zendesk has none by that id", async () => {
    const { client } = testDb();
    const none = await approvedReply(client, null);
    expect(await deliverReply({ deliveryId: none.delivery.id, client, channel: channelOf(zendesk) })).toBe("failed:no_helpdesk_thread");
    const gone = await approvedReply(client, { channel: "zendesk", externalTicketId: "999999" });
    expect(await deliverReply({ deliveryId: gone.delivery.id, client, channel: channelOf(zendesk) })).toBe(
      "failed:helpdesk_ticket_missing",
    );
    expect(await client.replyDelivery.findUnique({ where: { id: gone.delivery.id } })).toMatchObject({ state: "failed", attempts: 1 });
    expect((await deliveryEvents(none.delivery.id)).map((e) => [e.action, (e.inputs as { reason: string }).reason])).toEqual([
      ["reply.delivery_failed", "no_helpdesk_thread"],
    ]);
  });
});

describe("a reply delivered by email", () => {
  let received: ParsedMail[] = [];
  let smtp: SMTPServer;
  let port = 0;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => void received.push(mail))
          .then(() => callback(), callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
  beforeEach(() => void (received = []));

  it("arrives at the SMTP server threaded to the customer's message", async () => {
    const { client } = testDb();
    const customerMessage = "<CAF1234.abcd@mail.example.com>";
    const { message, delivery } = await approvedReply(client, { channel: "email", messageId: customerMessage, subject: "Broken charger" });
    const channel = emailChannel({ smtpUrl: `smtp://127.0.0.1:${port}`, from: "Support <support@shop.example>", timeoutMs: 5_000 });
    expect(await deliverReply({ deliveryId: delivery.id, client, channel })).toBe("delivered");
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    const ticket = await client.ticket.findUniqueOrThrow({ where: { id: message.ticketId } });
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]!.address : null).toBe(ticket.customerEmail);
    expect(mail.subject).toBe("Re: Broken charger");
    expect(mail.inReplyTo).toBe(customerMessage);
    expect(mail.references).toBe(customerMessage);
    expect(mail.messageId).toBe(`<${delivery.id}@shop.example>`);
    expect(mail.text?.trim()).toBe(message.body.trim());
    expect((await client.replyDelivery.findUnique({ where: { id: delivery.id } }))!.externalRef).toBe(`<${delivery.id}@shop.example>`);
  });

  it("answers the customer's newest email of the thread, naming the whole thread in References", async () => {
    const { client } = testDb();
    const first = "<first.9@mail.example.com>";
    const { message, delivery } = await approvedReply(client, { channel: "email", messageId: first, subject: "Refund" });
    const later = "<later.9@mail.example.com>";
    await receiveFollowUp({
      ticket: { id: message.ticketId },
      messageId: later,
      body: "Thanks, and when exactly?",
      channel: "email",
      client,
    });
    const channel = emailChannel({ smtpUrl: `smtp://127.0.0.1:${port}`, from: "support@shop.example", timeoutMs: 5_000 });
    expect(await deliverReply({ deliveryId: delivery.id, client, channel })).toBe("delivered");
    expect(received[0]!.inReplyTo).toBe(later);
    expect(received[0]!.references).toEqual([first, later]);
  });

  it("is retried when the server cannot be reached", async () => {
    const { client } = testDb();
    const { delivery } = await approvedReply(client, { channel: "email", messageId: "<x@y.example>" });
    const channel = emailChannel({ smtpUrl: "smtp://127.0.0.1:1", from: "support@shop.example", timeoutMs: 2_000 });
    await expect(deliverReply({ deliveryId: delivery.id, client, channel })).rejects.toThrow();
    expect(await client.replyDelivery.findUnique({ where: { id: delivery.id } })).toMatchObject({ state: "pending", attempts: 1 });
  });
});

describe("a reply delivered to a signed webhook", () => {
  it("posts the reply signed the Standard Webhooks way, its delivery id as webhook-id", async () => {
    const { client } = testDb();
    const secret = "w".repeat(40);
    const seen: { verdict: ReturnType<typeof verifyWebhook>; body: Record<string, unknown> }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const payload = Buffer.concat(chunks).toString("utf8");
        const headers = { get: (n: string) => (req.headers[n] as string | undefined) ?? null };
        seen.push({ verdict: verifyWebhook({ secrets: [secret], headers, payload, toleranceSeconds: 60 }), body: JSON.parse(payload) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { message, delivery } = await approvedReply(client, null);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/replies`;
      expect(await deliverReply({ deliveryId: delivery.id, client, channel: webhookChannel({ url, secret }) })).toBe("delivered");
      expect(seen).toHaveLength(1);
      expect(seen[0]!.verdict).toMatchObject({ ok: true, webhookId: delivery.id });
      expect(seen[0]!.body).toMatchObject({ type: "reply.released", deliveryId: delivery.id, body: message.body, disclosed: false });
      // Signed with another secret, the receiver would refuse it.
      const forged = webhookChannel({ url, secret: "x".repeat(40) });
      const other = await approvedReply(client, null);
      await deliverReply({ deliveryId: other.delivery.id, client, channel: forged });
      expect(seen.at(-1)!.verdict.ok).toBe(false);
    } finally {
      server.close();
    }
  });
});
