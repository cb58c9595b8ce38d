// The intake API and the outbox over real HTTP: the route handlers behind Node's HTTP server in a
// child process, configured as an operator would (several secrets in rotation, a rate limit), and
// signed by hand with node:crypto as a helpdesk in another language would sign – not with the app's
// own signing code. On PostgreSQL, concurrent deliveries race for real.
import { createHmac, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intakeTicket } from "../../testing/intake";
import { startRouteServer, type TRouteServer } from "../../testing/route-server";

const NEW = "http-new-intake-secret-0123456789abcdef0123";
const OLD = "http-old-intake-secret-0123456789abcdef0123";
// A key of its own for the rate-limit test, so that the other tests' deliveries do not count against it.
const METERED = "http-metered-secret-0123456789abcdef012345";
const LIMIT = 25;
const OUTBOX_LIMIT = 4;

let server: TRouteServer;

beforeAll(async () => {
  server = await startRouteServer({
    INTAKE_SECRET: "",
    INTAKE_SECRETS: `${NEW},${OLD},${METERED}`,
    INTAKE_RATE_LIMIT: String(LIMIT),
    INTAKE_RATE_LIMIT_PER_ADDRESS: "1000",
    OUTBOX_RATE_LIMIT: String(OUTBOX_LIMIT),
    OUTBOX_RATE_LIMIT_PER_ADDRESS: "1000",
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

/** Standard Webhooks, by hand: v1,base64(HMAC-SHA256(secret, "<id>.<timestamp>.<body>")). */
function sign(body: Buffer | string, secret: string, options: { id?: string; timestamp?: number } = {}): Record<string, string> {
  const id = options.id ?? `msg_${randomUUID()}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const signature = createHmac("sha256", secret).update(`${id}.${timestamp}.`).update(body).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": `v1,${signature}` };
}

async function post(body: Buffer | string, headers: Record<string, string>) {
  const response = await fetch(`${server.origin}/api/intake/tickets`, {
    method: "POST",
    body: typeof body === "string" ? body : new Uint8Array(body),
    headers,
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown> & { fieldErrors?: Record<string, string[]> },
  };
}

const json = { "content-type": "application/json" };

async function ticketCount(): Promise<number | null> {
  return server.database ? server.database.client.ticket.count() : null;
}

describe("intake over HTTP", () => {
  // On PostgreSQL the deliveries race in separate connections; PGlite serialises them.
  it("answers 20 concurrent first deliveries of one externalId with one 201 and nineteen 200s, one ticket", async () => {
    const raw = JSON.stringify(intakeTicket("http-burst"));
    // One delivery, retried by 20 workers at once: the same bytes, the same signature.
    const headers = { ...json, ...sign(raw, NEW) };
    const results = await Promise.all(Array.from({ length: 20 }, () => post(raw, headers)));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(19).fill(200), 201]);
    expect(new Set(results.map((r) => r.body.ticketId)).size).toBe(1);
    if (server.database) expect(await server.database.client.ticket.count({ where: { externalId: "http-burst" } })).toBe(1);
  });

  it("refuses each malformed delivery with its 4xx and a field error, and writes nothing", async () => {
    const before = await ticketCount();
    const good = JSON.stringify(intakeTicket("http-malformed"));
    const cases: { label: string; body: Buffer | string; headers?: Record<string, string>; status: number; field?: string }[] = [
      { label: "text/plain", body: good, headers: { "content-type": "text/plain" }, status: 415 },
      { label: "no content type", body: good, headers: {}, status: 415 },
      { label: "a duplicate key", body: good.replace(/}$/, ',"subject":"Refund me twice"}'), status: 400, field: "subject" },
      {
        label: "invalid UTF-8",
        body: Buffer.concat([
          Buffer.from(good.slice(0, good.indexOf("cracked"))),
          Buffer.from([0xff, 0xfe]),
          Buffer.from(good.slice(good.indexOf("cracked"))),
        ]),
        status: 400,
        field: "subject",
      },
      {
        label: "NUL in the subject",
        body: JSON.stringify(intakeTicket("http-malformed", { subject: "Tablet\u0000cracked" })),
        status: 400,
        field: "subject",
      },
      { label: "NUL in the body", body: JSON.stringify(intakeTicket("http-malformed", { body: "\u0000" })), status: 400, field: "body" },
      {
        label: "an escape character in the subject",
        body: JSON.stringify(intakeTicket("http-malformed", { subject: "\u001b[2J" })),
        status: 400,
        field: "subject",
      },
      { label: "a __proto__ key", body: good.replace(/}$/, ',"__proto__":{"isAdmin":true}}'), status: 400, field: "__proto__" },
    ];
    for (const c of cases) {
      const res = await post(c.body, { ...(c.headers ?? json), ...sign(c.body, OLD) });
      expect(res.status, c.label).toBe(c.status);
      if (c.field) {
        expect(res.body.error, c.label).toBe("invalid_fields");
        expect(Object.keys(res.body.fieldErrors ?? {}), c.label).toEqual([c.field]);
      }
    }
    if (before !== null) expect(await ticketCount()).toBe(before);
    // Nothing was written by any of them: the id is still new.
    expect((await post(good, { ...json, ...sign(good, OLD) })).status).toBe(201);
  });

  it("accepts a delivery signed with the old secret during rotation, and refuses a timestamp outside the window", async () => {
    const raw = JSON.stringify(intakeTicket("http-rotation"));
    const stale = await post(raw, { ...json, ...sign(raw, OLD, { timestamp: Math.floor(Date.now() / 1000) - 301 }) });
    expect(stale).toMatchObject({ status: 401, body: { error: "invalid_signature" } });
    const ahead = await post(raw, { ...json, ...sign(raw, NEW, { timestamp: Math.floor(Date.now() / 1000) + 301 }) });
    expect(ahead.status).toBe(401);
    const unknown = await post(raw, { ...json, ...sign(raw, "not-in-rotation-secret-0123456789abcdef01") });
    expect(unknown.status).toBe(401);
    expect(await post(raw, { ...json, ...sign(raw, OLD) })).toMatchObject({ status: 201, body: { externalId: "http-rotation" } });
  });

  it(`answers 429 with Retry-After past ${LIMIT} deliveries a window from one key, and writes nothing; other keys keep their budget`, async () => {
    const deliver = (id: string, secret: string) => {
      const raw = JSON.stringify(intakeTicket(id));
      return post(raw, { ...json, ...sign(raw, secret) });
    };
    for (let i = 0; i < LIMIT; i++) expect((await deliver(`http-metered-${i}`, METERED)).status).toBe(201);
    const before = await ticketCount();
    const over = await deliver(`http-metered-${LIMIT}`, METERED);
    expect(over).toMatchObject({ status: 429, body: { error: "rate_limited" } });
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    if (before !== null) expect(await ticketCount()).toBe(before);
    expect((await deliver(`http-metered-${LIMIT}`, NEW)).status).toBe(201);
  });
});

describe("the outbox over HTTP", () => {
  function outboxHeaders(pathAndQuery: string, secret: string): Record<string, string> {
    const timestamp = Math.floor(Date.now() / 1000);
    return {
      "x-countersign-timestamp": String(timestamp),
      "x-countersign-signature": `sha256=${createHmac("sha256", secret).update(`${timestamp}\nGET\n${pathAndQuery}`).digest("hex")}`,
    };
  }

  it("accepts a request signed with any secret in rotation, and signs its answer with the newest, bound to the request's id", async () => {
    for (const secret of [NEW, OLD]) {
      const requestId = `outbox-read-${randomUUID()}`;
      const response = await fetch(`${server.origin}/api/outbox?limit=5`, {
        headers: { ...outboxHeaders("/api/outbox?limit=5", secret), "x-request-id": requestId },
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ messages: expect.any(Array) });
      const id = response.headers.get("webhook-id");
      const timestamp = response.headers.get("webhook-timestamp")!;
      expect(id).toBe(requestId);
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
      const expected = createHmac("sha256", NEW).update(`${id}.${timestamp}.${text}`).digest("base64");
      expect(response.headers.get("webhook-signature")).toBe(`v1,${expected}`);
    }
  });

  it(`answers 429 with Retry-After past ${OUTBOX_LIMIT} reads a window from one key, itself signed`, async () => {
    const read = () => fetch(`${server.origin}/api/outbox`, { headers: outboxHeaders("/api/outbox", METERED) });
    for (let i = 0; i < OUTBOX_LIMIT; i++) expect((await read()).status).toBe(200);
    const over = await read();
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const text = await over.text();
    expect(JSON.parse(text)).toMatchObject({ error: "rate_limited" });
    const expected = createHmac("sha256", NEW)
      .update(`${over.headers.get("webhook-id")}.${over.headers.get("webhook-timestamp")}.${text}`)
      .digest("base64");
    expect(over.headers.get("webhook-signature")).toBe(`v1,${expected}`);
    // Another key reads on.
    expect((await fetch(`${server.origin}/api/outbox`, { headers: outboxHeaders("/api/outbox", NEW) })).status).toBe(200);
  });

  it("refuses an unsigned read with 401 and an unsigned answer", async () => {
    const response = await fetch(`${server.origin}/api/outbox`, {
      headers: outboxHeaders("/api/outbox", "not-in-rotation-secret-0123456789abcdef01"),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("webhook-signature")).toBeNull();
  });
});
