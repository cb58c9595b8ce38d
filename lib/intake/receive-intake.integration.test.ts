import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { intakeTicket, webhookHeaders } from "../../testing/intake";
import { auditVerifyReport } from "../audit/audit-verify-report";
import { intakeBundleKey } from "../env";
import { helpdeskLimiter } from "./rate-limits";
import { MAX_INTAKE_BYTES, receiveIntake, signIntakeBody, type TIntakeConfig } from "./receive-intake";
import { signRoute } from "./route-signature";

const testDb = useTestDb();
const SECRET = "intake-test-secret-0123456789abcdef0123";
const OLD_SECRET = "intake-old-secret-0123456789abcdef01234";
const CONFIG: TIntakeConfig = {
  secrets: [SECRET, OLD_SECRET],
  toleranceSeconds: 300,
  legacyUntil: new Date("2999-01-01T00:00:00Z"),
  limiter: null,
};

type TDeliverOptions = {
  raw?: string | Buffer;
  headers?: Record<string, string>;
  secret?: string;
  config?: Partial<TIntakeConfig>;
  address?: string;
};

/** A delivery signed the Standard Webhooks way with SECRET, unless `headers` says otherwise. */
function deliver(body: unknown, options: TDeliverOptions = {}) {
  const raw = Buffer.isBuffer(options.raw) ? options.raw : Buffer.from(options.raw ?? JSON.stringify(body));
  const headers = options.headers ?? webhookHeaders(raw.toString("utf8"), options.secret ?? SECRET);
  return receiveIntake(
    { rawBody: raw, headers: new Headers(headers), address: options.address ?? "192.0.2.10" },
    { ...CONFIG, ...options.config },
  );
}

async function rows() {
  const { client } = testDb();
  return { tickets: await client.ticket.count(), audit: await client.auditEvent.count() };
}

/** A refused delivery: its answer, and proof that nothing was written. */
async function refused(body: unknown, options: TDeliverOptions = {}) {
  const before = await rows();
  const res = await deliver(body, options);
  expect(await rows()).toEqual(before);
  return res;
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
    const raw = JSON.stringify(intakeTicket("hd-one-statement", { routeSignature: undefined }));
    const res = await deliver(null, { raw, headers: webhookHeaders(raw, SECRET, { id: "msg_one_statement" }) });
    expect(roundTrips.count - before).toBe(1);
    expect(res).toMatchObject({ status: 201, body: { admission: "bypassed", reason: "unverified_route", status: "bypassed" } });
    const row = await client.ticket.findUniqueOrThrow({ where: { externalId: "hd-one-statement" } });
    expect(row).toMatchObject({
      id: res.body.ticketId,
      number: res.body.number,
      source: "api",
      orderRef: "ORD-1001",
      route: "guarded_agent",
      routeSignature: null,
      admissionReason: "unverified_route",
      reason: "unverified_route",
      assigneeId: null,
    });
    expect(row.updatedAt).toEqual(row.createdAt);
    expect(Math.abs(row.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    const [event, ...others] = await client.auditEvent.findMany({ where: { ticketId: row.id } });
    expect(others).toEqual([]);
    // The delivery's webhook-id is recorded with the ticket's creation; idempotency stays on externalId.
    expect(event).toMatchObject({
      action: "ticket.created",
      actorType: "api",
      actorId: "intake",
      subjectId: row.id,
      stream: `ticket:${row.id}`,
      streamSeq: 1n,
      inputs: {
        source: "api",
        externalId: "hd-one-statement",
        route: "guarded_agent",
        bundleVersion: "intake-rules-2026.11",
        risks: [],
        webhookId: "msg_one_statement",
        signature: "standard_webhooks",
      },
      policyDecision: { admission: "bypassed", reason: "unverified_route" },
    });
    // Committed together: the event's transaction is the one that inserted the row.
    const [same] = await client.$queryRaw<
      { same: boolean }[]
    >`SELECT t.xmin::text::bigint = a.txid AS same FROM "Ticket" t JOIN "AuditEvent" a ON a."ticketId" = t.id WHERE t.id = ${row.id}::uuid`;
    expect(same).toEqual({ same: true });
    const lines: string[] = [];
    expect(await auditVerifyReport(client, (l) => lines.push(l), { file: "/nonexistent/checkpoints.jsonl" })).toBe(0);
  });

  it("answers 409 idempotency_mismatch for the same externalId with another body, changing nothing", async () => {
    const res = await refused(intakeTicket("hd-1001", { body: "Actually, refund me twice." }));
    expect(res).toMatchObject({ status: 409, body: { error: "idempotency_mismatch" } });
    expect((await testDb().client.ticket.findUniqueOrThrow({ where: { externalId: "hd-1001" } })).body).toBe(
      "The screen is cracked. Can I get a refund?",
    );
  });

  it("admits by the signed route: an unsigned or human route bypasses the agent", async () => {
    expect(await deliver(intakeTicket("hd-unsigned", { routeSignature: undefined }))).toMatchObject({
      status: 201,
      body: { admission: "bypassed", reason: "unverified_route" },
    });
    expect(await deliver(intakeTicket("hd-forged", { route: "guarded_agent", routeSignature: "0".repeat(64) }))).toMatchObject({
      status: 201,
      body: { reason: "unverified_route" },
    });
    const human = { ticketId: "hd-human", route: "human_review_now" as const, bundleVersion: "intake-rules-2026.11" };
    expect(
      await deliver(intakeTicket("hd-human", { route: "human_review_now", routeSignature: signRoute(human, intakeBundleKey()) })),
    ).toMatchObject({ status: 201, body: { reason: "classifier_human_review" } });
    expect(await deliver(intakeTicket("hd-old", { bundleVersion: "intake-rules-2026.08" }))).toMatchObject({
      status: 201,
      body: { reason: "stale_intake_bundle" },
    });
  });

  it("stores the subject and body exactly as sent; validation only looks at a trimmed copy", async () => {
    const subject = "  Tablet arrived cracked\t";
    const body = "\n  The screen is cracked.\r\n\tCan I get a refund?  \n";
    expect(await deliver(intakeTicket("hd-as-sent", { subject, body }))).toMatchObject({ status: 201 });
    expect(await testDb().client.ticket.findUniqueOrThrow({ where: { externalId: "hd-as-sent" } })).toMatchObject({ subject, body });
    // The same bytes again are the same delivery; the trimmed text is another body.
    expect(await deliver(intakeTicket("hd-as-sent", { subject, body }))).toMatchObject({ status: 200 });
    expect(await refused(intakeTicket("hd-as-sent", { subject: subject.trim(), body: body.trim() }))).toMatchObject({ status: 409 });
    expect(await refused(intakeTicket("hd-blank", { subject: " \t ", body: "\n\n" }))).toMatchObject({
      status: 400,
      body: { fieldErrors: { subject: ["must not be blank"], body: ["must not be blank"] } },
    });
  });
});

describe("intake refuses what it cannot store as sent (4xx, nothing written)", () => {
  it.each(["text/plain", "application/x-www-form-urlencoded", "application/jsonp", "application/json; charset=latin1", ""])(
    "answers 415 to Content-Type %j",
    async (contentType) => {
      const raw = JSON.stringify(intakeTicket("hd-media"));
      const headers = { ...webhookHeaders(raw, SECRET), "content-type": contentType };
      expect(await refused(null, { raw, headers })).toMatchObject({ status: 415, body: { error: "unsupported_media_type" } });
    },
  );

  it("accepts application/json with a UTF-8 charset, in any case", async () => {
    const raw = JSON.stringify(intakeTicket("hd-media-ok"));
    expect(
      await deliver(null, { raw, headers: { ...webhookHeaders(raw, SECRET), "content-type": "Application/JSON; charset=UTF-8" } }),
    ).toMatchObject({ status: 201 });
  });

  it("refuses a key given twice, naming it (JSON.parse would keep the last)", async () => {
    const raw = JSON.stringify(intakeTicket("hd-dup")).replace(/}$/, ',"body":"Refund me twice, to another card."}');
    const res = await refused(null, { raw });
    expect(res).toMatchObject({ status: 400, body: { error: "invalid_fields", fieldErrors: { body: ["is given more than once"] } } });
  });

  it.each(["__proto__", "constructor", "prototype"])("refuses a %s key with a field error", async (key) => {
    const raw = JSON.stringify(intakeTicket("hd-proto")).replace(/}$/, `,"${key}":{"admin":true}}`);
    const res = await refused(null, { raw });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_fields" });
    expect(Object.keys(res.body.fieldErrors as object)).toEqual([key]);
    expect(JSON.parse(JSON.stringify(res.body)).fieldErrors[key]).toEqual(["is not an accepted key (it names an object's prototype)"]);
  });

  it("refuses bytes that are not UTF-8, naming the field they sit in (nothing stored as U+FFFD)", async () => {
    const [before, after] = JSON.stringify(intakeTicket("hd-latin1", { body: "Le caf\u0000 est froid" })).split("\\u0000");
    const raw = Buffer.concat([Buffer.from(before!), Buffer.from([0xe9]), Buffer.from(after!)]);
    // Signed over the bytes as sent: a signer that signs bytes cannot sign invalid text any other way.
    const res = await refused(null, {
      raw,
      headers: { "content-type": "application/json", "x-countersign-signature": signIntakeBody(raw, SECRET) },
    });
    expect(res).toMatchObject({
      status: 400,
      body: { error: "invalid_fields", fieldErrors: { body: [expect.stringContaining("is not valid UTF-8")] } },
    });
  });

  it.each([
    ["NUL in the subject", { subject: "Tablet\u0000 cracked" }, "subject", "U+0000"],
    ["NUL in the body", { body: "The screen\u0000 is cracked." }, "body", "U+0000"],
    ["an escape sequence in the subject", { subject: "\u001b[31mURGENT\u001b[0m" }, "subject", "U+001B"],
    ["a bell in the body", { body: "Refund\u0007 now" }, "body", "U+0007"],
    ["a line break in the subject", { subject: "Cracked\nX-Injected: yes" }, "subject", "U+000A"],
    ["a C1 control in the body", { body: "Refund\u0085 now" }, "body", "U+0085"],
    ["NUL in the order id", { orderId: "ORD-1001\u0000" }, "orderId", "U+0000"],
    ["NUL in the bundle version", { bundleVersion: "intake-rules-2026.11\u0000" }, "bundleVersion", "U+0000"],
    ["NUL in the route signature", { routeSignature: "ab\u0000cd" }, "routeSignature", "U+0000"],
  ])("refuses %s with a field error", async (_label, overrides, field, codePoint) => {
    const res = await refused(intakeTicket("hd-control", overrides));
    expect(res).toMatchObject({ status: 400, body: { error: "invalid_fields" } });
    expect((res.body.fieldErrors as Record<string, string[]>)[field]).toEqual([expect.stringContaining(codePoint)]);
  });

  it("keeps tabs and line breaks in the body, and refuses half a surrogate pair anywhere", async () => {
    expect(await deliver(intakeTicket("hd-lines", { body: "Line one.\r\n\tLine two." }))).toMatchObject({ status: 201 });
    const res = await refused(null, {
      raw: JSON.stringify(intakeTicket("hd-surrogate")).replace("Tablet arrived", "Tablet \\ud83d arrived"),
    });
    expect(res).toMatchObject({ status: 400, body: { fieldErrors: { subject: [expect.stringContaining("surrogate")] } } });
  });

  it("refuses an order id with surrounding spaces rather than storing or trimming it", async () => {
    expect(await refused(intakeTicket("hd-order-space", { orderId: " ORD-1001" }))).toMatchObject({
      status: 400,
      body: { fieldErrors: { orderId: [expect.any(String)] } },
    });
  });

  it.each([
    ["a missing signature", (b: string) => ({ raw: b, headers: { "content-type": "application/json" } }), 401, "invalid_signature"],
    [
      "a signature by a secret not in rotation",
      (b: string) => ({ raw: b, headers: webhookHeaders(b, "another-secret-0123456789abcdef0123456789") }),
      401,
      "invalid_signature",
    ],
    ["a signature of another body", (b: string) => ({ raw: b, headers: webhookHeaders(b + " ", SECRET) }), 401, "invalid_signature"],
    ["malformed JSON", () => ({ raw: '{"externalId": "x",' }), 400, "invalid_json"],
    [
      "an oversized body",
      () => ({ raw: JSON.stringify(intakeTicket("big", { body: "x".repeat(MAX_INTAKE_BYTES) })) }),
      413,
      "payload_too_large",
    ],
    [
      "nesting past 32 levels",
      () => ({ raw: JSON.stringify({ ...intakeTicket("deep"), body: JSON.parse("[".repeat(40) + "]".repeat(40)) }) }),
      400,
      "invalid_fields",
    ],
  ])("refuses %s and writes nothing", async (_label, make, status, error) => {
    const res = await refused(null, make(JSON.stringify(intakeTicket("hd-refused"))));
    expect(res).toMatchObject({ status, body: { error } });
  });

  it("names every bad field, and writes nothing", async () => {
    const { routeSignature: _s, subject: _subject, ...rest } = intakeTicket("hd-bad");
    const res = await refused({ ...rest, customerEmail: "not-an-email", route: "anywhere", orderId: 1001, admin: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_fields");
    expect(Object.keys(res.body.fieldErrors as object).sort()).toEqual(["admin", "customerEmail", "orderId", "route", "subject"]);
  });
});

describe("intake signatures: Standard Webhooks, rotation, replay window, the deprecated header", () => {
  it("accepts a delivery signed with the old secret while it is in rotation, and refuses it once it is not", async () => {
    expect(await deliver(intakeTicket("hd-rotation-old"), { secret: OLD_SECRET })).toMatchObject({ status: 201 });
    expect(await refused(intakeTicket("hd-rotation-gone"), { secret: OLD_SECRET, config: { secrets: [SECRET] } })).toMatchObject({
      status: 401,
      body: { error: "invalid_signature" },
    });
  });

  it("refuses a timestamp outside the tolerance window, either side, and accepts one inside it", async () => {
    const raw = JSON.stringify(intakeTicket("hd-window"));
    for (const offset of [-301_000, 301_000]) {
      const res = await refused(null, { raw, headers: webhookHeaders(raw, SECRET, { timestamp: new Date(Date.now() + offset) }) });
      expect(res).toMatchObject({
        status: 401,
        body: { error: "invalid_signature", message: expect.stringContaining("webhook-timestamp") },
      });
    }
    const narrow = await refused(null, {
      raw,
      headers: webhookHeaders(raw, SECRET, { timestamp: new Date(Date.now() - 90_000) }),
      config: { toleranceSeconds: 60 },
    });
    expect(narrow.status).toBe(401);
    expect(await deliver(null, { raw, headers: webhookHeaders(raw, SECRET, { timestamp: new Date(Date.now() - 90_000) }) })).toMatchObject({
      status: 201,
    });
  });

  it("answers a replay inside the window from the ticket's idempotency: 200, the same ticket, nothing written", async () => {
    const raw = JSON.stringify(intakeTicket("hd-replay"));
    const headers = webhookHeaders(raw, SECRET);
    const first = await deliver(null, { raw, headers });
    expect(first.status).toBe(201);
    const before = await rows();
    expect(await deliver(null, { raw, headers })).toEqual({ status: 200, body: first.body });
    expect(await rows()).toEqual(before);
  });

  it("accepts the deprecated X-Countersign-Signature until its date, saying when it goes; refuses it after", async () => {
    const raw = JSON.stringify(intakeTicket("hd-legacy"));
    const headers = { "content-type": "application/json", "x-countersign-signature": signIntakeBody(raw, SECRET) };
    const until = new Date("2027-03-01T00:00:00Z");
    const before = await deliver(null, { raw, headers, config: { legacyUntil: until, now: new Date("2027-02-28T23:59:00Z") } });
    expect(before).toMatchObject({ status: 201, headers: { sunset: until.toUTCString() } });
    const event = await testDb().client.auditEvent.findFirstOrThrow({ where: { ticketId: before.body.ticketId as string } });
    expect(event.inputs).toMatchObject({ webhookId: null, signature: "legacy" });
    const raw2 = JSON.stringify(intakeTicket("hd-legacy-late"));
    const late = { "content-type": "application/json", "x-countersign-signature": signIntakeBody(raw2, SECRET) };
    expect(await refused(null, { raw: raw2, headers: late, config: { legacyUntil: until, now: until } })).toMatchObject({
      status: 401,
      body: { message: expect.stringContaining("no longer accepted") },
    });
    expect(await refused(null, { raw: raw2, headers: late, config: { legacyUntil: null } })).toMatchObject({ status: 401 });
    // The old secret in rotation signs the old way too, until the date.
    expect(
      await deliver(null, { raw: raw2, headers: { ...late, "x-countersign-signature": signIntakeBody(raw2, OLD_SECRET) } }),
    ).toMatchObject({ status: 201 });
  });

  it("never falls back to the deprecated header when a Standard Webhooks signature is present", async () => {
    const raw = JSON.stringify(intakeTicket("hd-no-fallback"));
    const headers = {
      ...webhookHeaders(raw, "another-secret-0123456789abcdef0123456789"),
      "x-countersign-signature": signIntakeBody(raw, SECRET),
    };
    expect(await refused(null, { raw, headers })).toMatchObject({ status: 401 });
  });
});

describe("intake rate limits", () => {
  it("answers 429 with Retry-After past the limit per key, writes nothing, and leaves another key its own budget", async () => {
    const limiter = helpdeskLimiter("intake", { perKey: 3, perAddress: 0, windowSeconds: 60 });
    const config = { limiter };
    for (let i = 0; i < 3; i++) expect(await deliver(intakeTicket(`hd-limit-${i}`), { config })).toMatchObject({ status: 201 });
    const over = await refused(intakeTicket("hd-limit-3"), { config });
    expect(over).toMatchObject({ status: 429, body: { error: "rate_limited" } });
    const retryAfter = Number(over.headers?.["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another key (the old secret, still in rotation) from the same address has its own count.
    expect(await deliver(intakeTicket("hd-limit-3"), { config, secret: OLD_SECRET })).toMatchObject({ status: 201 });
  });

  it("limits an address whichever key signs, and counts no request whose signature failed", async () => {
    const limiter = helpdeskLimiter("intake", { perKey: 0, perAddress: 2, windowSeconds: 60 });
    const config = { limiter };
    const address = "198.51.100.7";
    for (let i = 0; i < 5; i++)
      expect(
        await refused(intakeTicket(`hd-addr-bad-${i}`), { config, address, secret: "unknown-secret-0123456789abcdef0123456789" }),
      ).toMatchObject({ status: 401 });
    expect(await deliver(intakeTicket("hd-addr-0"), { config, address })).toMatchObject({ status: 201 });
    expect(await deliver(intakeTicket("hd-addr-1"), { config, address, secret: OLD_SECRET })).toMatchObject({ status: 201 });
    expect(await refused(intakeTicket("hd-addr-2"), { config, address })).toMatchObject({
      status: 429,
      body: { message: expect.stringContaining("address") },
    });
    expect(await deliver(intakeTicket("hd-addr-2"), { config, address: "198.51.100.8" })).toMatchObject({ status: 201 });
  });

  it("keeps the counts in the database: another limiter (another instance) sees them", async () => {
    const limits = { perKey: 2, perAddress: 0, windowSeconds: 60 };
    const raw = (id: string) => JSON.stringify(intakeTicket(id));
    const key = "shared-count-secret-0123456789abcdef0123456";
    const config = (limiter: ReturnType<typeof helpdeskLimiter>) => ({ limiter, secrets: [key] });
    expect(
      await deliver(null, {
        raw: raw("hd-shared-0"),
        headers: webhookHeaders(raw("hd-shared-0"), key),
        config: config(helpdeskLimiter("intake", limits)),
      }),
    ).toMatchObject({ status: 201 });
    expect(
      await deliver(null, {
        raw: raw("hd-shared-1"),
        headers: webhookHeaders(raw("hd-shared-1"), key),
        config: config(helpdeskLimiter("intake", limits)),
      }),
    ).toMatchObject({ status: 201 });
    expect(
      await deliver(null, {
        raw: raw("hd-shared-2"),
        headers: webhookHeaders(raw("hd-shared-2"), key),
        config: config(helpdeskLimiter("intake", limits)),
      }),
    ).toMatchObject({ status: 429 });
  });

  it("costs the limiter two statements beside the ticket's one", async () => {
    const { roundTrips } = testDb();
    const before = roundTrips.count;
    expect(
      await deliver(intakeTicket("hd-limit-trips"), {
        config: { limiter: helpdeskLimiter("intake", { perKey: 100, perAddress: 100, windowSeconds: 60 }) },
      }),
    ).toMatchObject({ status: 201 });
    expect(roundTrips.count - before).toBe(3);
  });
});

describe("intake under concurrency", () => {
  it("makes one ticket from concurrent deliveries of one externalId", async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => deliver(intakeTicket("hd-burst"))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(11);
    expect(new Set(results.map((r) => r.body.ticketId)).size).toBe(1);
    expect(await testDb().client.ticket.count({ where: { externalId: "hd-burst" } })).toBe(1);
  });
});
