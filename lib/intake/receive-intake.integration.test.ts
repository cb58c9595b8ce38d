import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { intakeTicket } from "../../testing/intake";
import { auditVerifyReport } from "../audit/audit-verify-report";
import { intakeBundleKey } from "../env";
import { MAX_INTAKE_BYTES, receiveIntake, signIntakeBody } from "./receive-intake";
import { signRoute } from "./route-signature";

const testDb = useTestDb();
const SECRET = "intake-test-secret-0123456789abcdef0123";


function deliver(body: unknown, options: { raw?: string; signature?: string | null } = {}) {
  const raw = Buffer.from(options.raw ?? JSON.stringify(body));
  return receiveIntake({ rawBody: raw, signature: options.signature === undefined ? signIntakeBody(raw, SECRET) : options.signature, secret: SECRET });
}

async function rows() {
  const { client } = testDb();
  return { tickets: await client.ticket.count(), audit: await client.auditEvent.count() };
}

describe("intake API rules", () => {
  it("creates a signed ticket with its admission (201), and a repeat answers 200 with the same ticket", async () => {
    const first = await deliver(intakeTicket("hd-1001"));
    expect(first).toMatchObject({ status: 201, body: { externalId: "hd-1001", admission: "admitted", reason: null, status: "open" } });
    const again = await deliver(intakeTicket("hd-1001"));
    expect(again).toEqual({ status: 200, body: first.body });
    expect(await testDb().client.ticket.count({ where: { externalId: "hd-1001" } })).toBe(1);
  });

  it("writes a new ticket and its audit event in one statement, as createTicket would, on a chain that verifies", async () => {
    const { client, roundTrips } = testDb();
    const before = roundTrips.count;
    const res = await deliver(intakeTicket("hd-one-statement", { routeSignature: undefined }));
    expect(roundTrips.count - before).toBe(1);
    expect(res).toMatchObject({ status: 201, body: { admission: "bypassed", reason: "unverified_route", status: "bypassed" } });
    const row = await client.ticket.findUniqueOrThrow({ where: { externalId: "hd-one-statement" } });
    expect(row).toMatchObject({ id: res.body.ticketId, number: res.body.number, source: "api", orderRef: "ORD-1001", route: "guarded_agent", routeSignature: null, admissionReason: "unverified_route", reason: "unverified_route", assigneeId: null });
    expect(row.updatedAt).toEqual(row.createdAt);
    expect(Math.abs(row.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    const [event, ...others] = await client.auditEvent.findMany({ where: { ticketId: row.id } });
    expect(others).toEqual([]);
    expect(event).toMatchObject({ action: "ticket.created", actorType: "api", actorId: "intake", subjectId: row.id, stream: `ticket:${row.id}`, streamSeq: 1n, inputs: { source: "api", externalId: "hd-one-statement", route: "guarded_agent", bundleVersion: "intake-rules-2026.11", risks: [] }, policyDecision: { admission: "bypassed", reason: "unverified_route" } });
    // Committed together: the event's transaction is the one that inserted the row.
    const [same] = await client.$queryRaw<{ same: boolean }[]>`SELECT t.xmin::text::bigint = a.txid AS same FROM "Ticket" t JOIN "AuditEvent" a ON a."ticketId" = t.id WHERE t.id = ${row.id}::uuid`;
    expect(same).toEqual({ same: true });
    const lines: string[] = [];
    expect(await auditVerifyReport(client, (l) => lines.push(l), { file: "/nonexistent/checkpoints.jsonl" })).toBe(0);
  });

  it("answers 409 idempotency_mismatch for the same externalId with another body, changing nothing", async () => {
    const before = await rows();
    const res = await deliver(intakeTicket("hd-1001", { body: "Actually, refund me twice." }));
    expect(res).toMatchObject({ status: 409, body: { error: "idempotency_mismatch" } });
    expect(await rows()).toEqual(before);
    expect((await testDb().client.ticket.findUniqueOrThrow({ where: { externalId: "hd-1001" } })).body).toBe("The screen is cracked. Can I get a refund?");
  });

  it("admits by the signed route: an unsigned or human route bypasses the agent", async () => {
    expect(await deliver(intakeTicket("hd-unsigned", { routeSignature: undefined }))).toMatchObject({ status: 201, body: { admission: "bypassed", reason: "unverified_route" } });
    expect(await deliver(intakeTicket("hd-forged", { route: "guarded_agent", routeSignature: "0".repeat(64) }))).toMatchObject({ status: 201, body: { reason: "unverified_route" } });
    const human = { ticketId: "hd-human", route: "human_review_now" as const, bundleVersion: "intake-rules-2026.11" };
    expect(await deliver(intakeTicket("hd-human", { route: "human_review_now", routeSignature: signRoute(human, intakeBundleKey()) }))).toMatchObject({ status: 201, body: { reason: "classifier_human_review" } });
    expect(await deliver(intakeTicket("hd-old", { bundleVersion: "intake-rules-2026.08" }))).toMatchObject({ status: 201, body: { reason: "stale_intake_bundle" } });
  });

  it.each([
    ["a missing signature", (b: string) => ({ raw: b, signature: null }), 401, "invalid_signature"],
    ["a wrong signature", (b: string) => ({ raw: b, signature: signIntakeBody(b, "another-secret") }), 401, "invalid_signature"],
    ["a signature of another body", (b: string) => ({ raw: b, signature: signIntakeBody(b + " ", SECRET) }), 401, "invalid_signature"],
    ["malformed JSON", () => ({ raw: '{"externalId": "x",' }), 400, "invalid_json"],
    ["an oversized body", () => ({ raw: JSON.stringify(intakeTicket("big", { body: "x".repeat(MAX_INTAKE_BYTES) })) }), 413, "payload_too_large"],
  ])("refuses %s and writes nothing", async (_label, make, status, error) => {
    const before = await rows();
    const res = await deliver(null, make(JSON.stringify(intakeTicket("hd-refused"))));
    expect(res).toMatchObject({ status, body: { error } });
    expect(await rows()).toEqual(before);
  });

  it("names every bad field, and writes nothing", async () => {
    const before = await rows();
    const { routeSignature: _s, subject: _subject, ...rest } = intakeTicket("hd-bad");
    const res = await deliver({ ...rest, customerEmail: "not-an-email", route: "anywhere", orderId: 1001, admin: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_fields");
    expect(Object.keys(res.body.fieldErrors as object).sort()).toEqual(["admin", "customerEmail", "orderId", "route", "subject"]);
    expect(await rows()).toEqual(before);
  });

  it("makes one ticket from concurrent deliveries of one externalId", async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => deliver(intakeTicket("hd-burst"))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(11);
    expect(new Set(results.map((r) => r.body.ticketId)).size).toBe(1);
    expect(await testDb().client.ticket.count({ where: { externalId: "hd-burst" } })).toBe(1);
  });
});
