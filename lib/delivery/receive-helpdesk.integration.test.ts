// Tickets from Zendesk and from an email service: signed each its own way, created through the
// intake's path with the thread the reply goes back to; forged, stale or replayed deliveries change nothing.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { signWebhook } from "../intake/webhook-signature";
import { receiveInboundEmail, receiveZendeskTicket } from "./receive-helpdesk";
import { zendeskSignature, ZENDESK_SIGNATURE_HEADER, ZENDESK_TIMESTAMP_HEADER } from "./zendesk-signature";

const testDb = useTestDb();

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
