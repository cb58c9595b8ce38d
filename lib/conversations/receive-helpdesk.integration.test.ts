// Messages from Zendesk and from an email service: signed each its own way; a new conversation is
// created through the intake's path with the thread the reply goes back to, a message on a known
// thread takes the follow-up path (supersede, reopen, once per message id); forged, stale or replayed
// deliveries change nothing.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { approvalFor, freshOrder, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { resolveByHand } from "../approvals/resolve-by-hand";
import { markDelivered, startAttempt } from "../delivery/store/delivery-store";
import { signWebhook } from "../intake/webhook-signature";
import { receiveInboundEmail, receiveZendeskTicket } from "./receive-helpdesk";
import { zendeskSignature, ZENDESK_SIGNATURE_HEADER, ZENDESK_TIMESTAMP_HEADER } from "../intake/zendesk-signature";

const testDb = useTestDb(seedDemo);

const messagesOf = (ticketId: string) =>
  testDb().client.ticketMessage.findMany({ where: { ticketId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

const SECRET = "zendesk-signing-secret-0123456789";
const now = new Date("2026-11-27T09:00:00Z");
const config = () => ({ secret: SECRET, toleranceSeconds: 300, now, client: testDb().client });

function zendeskDelivery(body: string, opts: { secret?: string; timestamp?: string } = {}) {
  const timestamp = opts.timestamp ?? now.toISOString();
  const headers = new Headers({
    "content-type": "application/json",
    [ZENDESK_TIMESTAMP_HEADER]: timestamp,
    [ZENDESK_SIGNATURE_HEADER]: zendeskSignature(opts.secret ?? SECRET, timestamp, body),
  });
  return { rawBody: Buffer.from(body), headers, address: "127.0.0.1" };
}

const ticketBody = (id: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    ticketId: id,
    subject: "Charger broken",
    body: "My charger stopped working, order ORD-1001.",
    requesterEmail: "dana.whitfield@example.net",
    ...extra,
  });

describe("a Zendesk webhook", () => {
  it("signed by Zendesk creates one ticket, admitted by the intake's path, with its Zendesk thread", async () => {
    const { client } = testDb();
    const answer = await receiveZendeskTicket(zendeskDelivery(ticketBody(3001)), config());
    expect(answer.status).toBe(201);
    const ticket = await client.ticket.findUniqueOrThrow({ where: { externalId: "zendesk-3001" }, include: { helpdeskThread: true } });
    expect(ticket).toMatchObject({ subject: "Charger broken", source: "api", customerEmail: "dana.whitfield@example.net" });
    expect(ticket.helpdeskThread).toMatchObject({ channel: "zendesk", externalTicketId: "3001" });
    expect(await client.auditEvent.count({ where: { ticketId: ticket.id, action: "ticket.created" } })).toBe(1);
  });

  it("refuses a forged signature, a changed body and a stale timestamp, and writes nothing", async () => {
    const { client } = testDb();
    const before = await client.ticket.count();
    expect(
      (await receiveZendeskTicket(zendeskDelivery(ticketBody(3002), { secret: "another-secret-entirely-000000" }), config())).status,
    ).toBe(401);
    const signed = zendeskDelivery(ticketBody(3002));
    const tampered = { ...signed, rawBody: Buffer.from(ticketBody(3002, { subject: "Refund me 1000 USD" })) };
    expect((await receiveZendeskTicket(tampered, config())).status).toBe(401);
    const stale = zendeskDelivery(ticketBody(3002), { timestamp: new Date(now.getTime() - 301_000).toISOString() });
    expect(await receiveZendeskTicket(stale, config())).toMatchObject({ status: 401, body: { error: "invalid_signature" } });
    const unsigned = {
      rawBody: Buffer.from(ticketBody(3002)),
      headers: new Headers({ "content-type": "application/json" }),
      address: null,
    };
    expect((await receiveZendeskTicket(unsigned, config())).status).toBe(401);
    expect(await client.ticket.count()).toBe(before);
  });

  it("answers a replay inside the window with the same ticket and creates none; one replayed later is refused", async () => {
    const { client } = testDb();
    const delivery = zendeskDelivery(ticketBody(3003));
    const first = await receiveZendeskTicket(delivery, config());
    const before = await client.ticket.count();
    const replay = await receiveZendeskTicket(delivery, config());
    expect(replay).toMatchObject({ status: 200, body: { ticketId: first.body.ticketId } });
    const later = await receiveZendeskTicket(delivery, { ...config(), now: new Date(now.getTime() + 10 * 60_000) });
    expect(later.status).toBe(401);
    expect(await client.ticket.count()).toBe(before);
  });

  it("takes a later comment on a ticket waiting for approval as a follow-up: the request is superseded, once per comment id", async () => {
    const { client } = testDb();
    const world = await freshOrder(client);
    const opening = {
      ticketId: 3005,
      commentId: 90001,
      subject: "Tablet arrived with a cracked screen",
      body: "Hi, my Aurora tablet arrived with a cracked screen. Can I get a refund?",
      requesterEmail: world.email,
    };
    const created = await receiveZendeskTicket(zendeskDelivery(JSON.stringify(opening)), config());
    expect(created.status).toBe(201);
    const ticketId = created.body.ticketId as string;
    // A comment naming the customer's order: the ticket's order from now on, as through the intake API.
    const naming = JSON.stringify({ ...opening, commentId: 90002, body: `Sorry, the order is ${world.orderId}.` });
    expect(await receiveZendeskTicket(zendeskDelivery(naming), config())).toMatchObject({
      status: 201,
      body: { ticketId, superseded: [] },
    });
    expect((await client.ticket.findUniqueOrThrow({ where: { id: ticketId } })).orderRef).toBe(world.orderId);
    const request = await approvalFor(client, ticketId);

    const comment = JSON.stringify({ ...opening, commentId: 90003, body: "And the charger is broken too." });
    const followUp = await receiveZendeskTicket(zendeskDelivery(comment), config());
    expect(followUp).toMatchObject({ status: 201, body: { ticketId, messageId: "90003", status: "open", superseded: [request.id] } });
    expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      status: "superseded",
      supersededReason: "customer_follow_up",
    });
    expect(await client.ticket.findUniqueOrThrow({ where: { id: ticketId } })).toMatchObject({
      status: "open",
      reason: "customer_follow_up",
    });

    // Zendesk's retry of the same comment: one message; the same comment id with other words: refused.
    expect(await receiveZendeskTicket(zendeskDelivery(comment), config())).toMatchObject({
      status: 200,
      body: { ticketId, superseded: [] },
    });
    const changed = JSON.stringify({ ...opening, commentId: 90003, body: "Actually, never mind." });
    expect((await receiveZendeskTicket(zendeskDelivery(changed), config())).status).toBe(409);
    // The opening comment again with other words is not a follow-up either.
    const reworded = JSON.stringify({ ...opening, body: "Reworded opening." });
    expect((await receiveZendeskTicket(zendeskDelivery(reworded), config())).status).toBe(409);
    const messages = await messagesOf(ticketId);
    expect(messages.filter((m) => m.kind === "customer").map((m) => [m.channel, m.externalMessageId, m.body])).toEqual([
      ["api", null, opening.body],
      ["zendesk", "90002", `Sorry, the order is ${world.orderId}.`],
      ["zendesk", "90003", "And the charger is broken too."],
    ]);
    const received = await client.auditEvent.findMany({ where: { ticketId, action: "message.received" } });
    expect(received.map((e) => e.actorId)).toEqual(["zendesk", "zendesk"]);
  });

  it("is off until its secret is set", async () => {
    expect((await receiveZendeskTicket(zendeskDelivery(ticketBody(3004)), { ...config(), secret: undefined })).status).toBe(401);
  });
});

describe("an inbound email", () => {
  const secrets = ["e".repeat(40)];
  // The Standard Webhooks library checks its own window against the real clock.
  const now = new Date();
  const mail = (messageId: string) =>
    JSON.stringify({ from: "sam@example.net", subject: "Refund?", text: "Can I get a refund for ORD-1002?", messageId, inReplyTo: null });
  const signed = (body: string, secret = secrets[0]!) => ({
    rawBody: Buffer.from(body),
    headers: new Headers({ "content-type": "application/json", ...signWebhook({ secret, id: "msg_1", timestamp: now, payload: body }) }),
    address: null,
  });

  it("signed like intake creates a ticket threaded to the customer's Message-ID, once", async () => {
    const { client } = testDb();
    const body = mail("<abc.123@mail.example.net>");
    const answer = await receiveInboundEmail(signed(body), { secrets, toleranceSeconds: 300, now, client });
    expect(answer.status).toBe(201);
    const ticket = await client.ticket.findUniqueOrThrow({
      where: { id: answer.body.ticketId as string },
      include: { helpdeskThread: true },
    });
    expect(ticket.helpdeskThread).toMatchObject({ channel: "email", messageId: "<abc.123@mail.example.net>", subject: "Refund?" });
    expect((await receiveInboundEmail(signed(body), { secrets, toleranceSeconds: 300, now, client })).status).toBe(200);
    expect(await client.ticket.count({ where: { customerEmail: "sam@example.net", subject: "Refund?" } })).toBe(1);
  });

  it("answering our reply or the customer's first message, is a follow-up: it reopens the resolved ticket, once per Message-ID", async () => {
    const { client } = testDb();
    const first = "<first.1@mail.example.net>";
    const created = await receiveInboundEmail(signed(mail(first)), { secrets, toleranceSeconds: 300, now, client });
    expect(created.status).toBe(201);
    const ticketId = created.body.ticketId as string;
    await resolveByHand({ ticketId, reply: "Thank you for writing; we will look into it.", actor: await user(client, "REVIEWER"), client });
    // The reply went out by email: its Message-ID is the delivery's reference.
    const delivery = await client.replyDelivery.findFirstOrThrow({ where: { ticketId } });
    const ours = `<${delivery.id}@shop.example>`;
    await startAttempt(client, delivery.id, "email");
    await markDelivered(client, delivery.id, ours);

    const answer = (messageId: string, inReplyTo: string | null, references: string | null, text: string) =>
      JSON.stringify({ from: "sam@example.net", subject: "Re: Refund?", text, messageId, inReplyTo, references });
    const reply = answer("<second.2@mail.example.net>", ours, `${first} ${ours}`, "It has been a week and nothing yet.");
    const followUp = await receiveInboundEmail(signed(reply), { secrets, toleranceSeconds: 300, now, client });
    expect(followUp).toMatchObject({ status: 201, body: { ticketId, messageId: "<second.2@mail.example.net>", status: "open" } });
    expect(await client.ticket.findUniqueOrThrow({ where: { id: ticketId } })).toMatchObject({
      status: "open",
      reason: "reopened_by_customer",
    });
    expect((await receiveInboundEmail(signed(reply), { secrets, toleranceSeconds: 300, now, client })).status).toBe(200);

    // A mail program that keeps only References still finds the thread.
    const third = answer("<third.3@mail.example.net>", null, first, "Any news?");
    expect(await receiveInboundEmail(signed(third), { secrets, toleranceSeconds: 300, now, client })).toMatchObject({
      status: 201,
      body: { ticketId },
    });
    const customer = (await messagesOf(ticketId)).filter((m) => m.kind === "customer");
    expect(customer.map((m) => [m.channel, m.externalMessageId])).toEqual([
      ["api", null],
      ["email", "<second.2@mail.example.net>"],
      ["email", "<third.3@mail.example.net>"],
    ]);
    // An email that answers nothing we know starts a conversation of its own.
    const unrelated = answer("<other.4@mail.example.net>", "<unknown@elsewhere.example>", null, "A new question.");
    const fresh = await receiveInboundEmail(signed(unrelated), { secrets, toleranceSeconds: 300, now, client });
    expect(fresh.status).toBe(201);
    expect(fresh.body.ticketId).not.toBe(ticketId);
  });

  it("refuses one signed with another secret", async () => {
    const answer = await receiveInboundEmail(signed(mail("<x.9@mail.example.net>"), "f".repeat(40)), {
      secrets,
      toleranceSeconds: 300,
      now,
      client: testDb().client,
    });
    expect(answer.status).toBe(401);
  });
});
