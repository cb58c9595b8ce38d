// POST /api/intake/messages's rules: signed as ticket deliveries are, strict fields, one message per
// helpdesk message id, 404 for a ticket nobody delivered.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { intakeTicket, webhookHeaders } from "../../testing/intake";
import { receiveFollowUpIntake, receiveIntake, type TIntakeConfig } from "./receive-intake";
import { storeFollowUpDelivery } from "../conversations/receive-follow-up";

const testDb = useTestDb();
const SECRET = "intake-test-secret-0123456789abcdef0123";
const CONFIG: TIntakeConfig = { secrets: [SECRET], toleranceSeconds: 300, legacyUntil: null, limiter: null };

function deliver(body: unknown, options: { secret?: string; raw?: string } = {}) {
  const raw = options.raw ?? JSON.stringify(body);
  const headers = new Headers(webhookHeaders(raw, options.secret ?? SECRET));
  return receiveFollowUpIntake({ rawBody: Buffer.from(raw), headers, address: "192.0.2.20" }, storeFollowUpDelivery, CONFIG);
}

const messages = () => testDb().client.ticketMessage.count();

describe("follow-up intake", () => {
  it("adds a signed follow-up once per message id, by externalId or by ticketId", async () => {
    const raw = JSON.stringify(intakeTicket("hd-fu-1"));
    const created = await receiveIntake(
      { rawBody: Buffer.from(raw), headers: new Headers(webhookHeaders(raw, SECRET)), address: null },
      CONFIG,
    );
    expect(created.status).toBe(201);
    const ticketId = created.body.ticketId as string;
    const first = await deliver({ externalId: "hd-fu-1", messageId: "m-1", body: "Any news?" });
    expect(first).toMatchObject({ status: 201, body: { ticketId, messageId: "m-1", status: "open", superseded: [] } });
    expect(await deliver({ ticketId, messageId: "m-1", body: "Any news?" })).toMatchObject({ status: 200, body: { ticketId } });
    expect(await deliver({ ticketId, messageId: "m-1", body: "Hello?" })).toMatchObject({
      status: 409,
      body: { error: "idempotency_mismatch" },
    });
    expect(await testDb().client.ticketMessage.count({ where: { ticketId } })).toBe(2);
  });

  it("refuses a bad signature, unknown or missing fields, both ticket references, and an unknown ticket, writing nothing", async () => {
    const before = await messages();
    const ok = { externalId: "hd-fu-1", messageId: "m-9", body: "Hi" };
    expect((await deliver(ok, { secret: "another-secret-0123456789abcdef0123456" })).status).toBe(401);
    expect(await deliver({ ...ok, role: "admin" })).toMatchObject({
      status: 400,
      body: { error: "invalid_fields", fieldErrors: { role: expect.anything() } },
    });
    expect(await deliver({ externalId: "hd-fu-1", body: "Hi" })).toMatchObject({
      status: 400,
      body: { fieldErrors: { messageId: expect.anything() } },
    });
    expect(await deliver({ ...ok, ticketId: "00000000-0000-4000-8000-000000000000" })).toMatchObject({ status: 400 });
    expect(await deliver({ ...ok, body: "Hi\u0000" })).toMatchObject({ status: 400, body: { fieldErrors: { body: expect.anything() } } });
    expect(await deliver({ ...ok, externalId: "hd-nobody" })).toMatchObject({ status: 404, body: { error: "unknown_ticket" } });
    expect(await messages()).toBe(before);
  });
});
