// The log lines of real requests, as an operator's collector reads them: a child process serves the
// app's own route handlers (intake, outbox, health, next-auth) behind Node's HTTP server with the
// request context the production server installs, and logs JSON to standard output. Every line a
// request logs carries its id (the caller's when well-formed, the one sent back otherwise), under
// concurrency too; and no secret – the intake secret, a body's signature, a password, a session
// cookie, an authorization header – reaches a line, on standard output or standard error.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../testing/db";
import { intakeTicket, webhookHeaders } from "../../testing/intake";
import { signIn } from "../../testing/sign-in";
import { killHard } from "../../testing/spawn-ts";
import { DEMO_PASSWORD } from "../../prisma/seed/demo";
import { intakeSecret } from "../env";
import { REQUEST_SIGNATURE_HEADER, signRequest, TIMESTAMP_HEADER } from "../intake/request-signature";

type TLine = Record<string, unknown> & { msg?: string; requestId?: string };

let child: ChildProcess;
let database: TestDb | undefined;
let origin = "";
let stdout = "";
let stderr = "";
const lines: TLine[] = [];
const waiting: { test: (line: TLine) => boolean; resolve: (line: TLine) => void; reject: (error: Error) => void }[] = [];
let exited: Error | undefined;

/** The first line, already logged or still to come, that passes `test` (refused once the server has exited). */
function lineWhere(test: (line: TLine) => boolean): Promise<TLine> {
  const seen = lines.find(test);
  if (seen) return Promise.resolve(seen);
  if (exited) return Promise.reject(exited);
  return new Promise((resolve, reject) => waiting.push({ test, resolve, reject }));
}

beforeAll(async () => {
  // On PostgreSQL the server gets a clone of its own; on PGlite it makes an in-memory database.
  if (process.env.DATABASE_URL) database = await createTestDb();
  // Standard error is read too: nothing may leak there either.
  child = spawn(process.execPath, ["--import", "tsx", "testing/logged-server.ts"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LOG_LEVEL: "debug", DATABASE_URL: database?.url ?? "" },
  });
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.on("exit", (code) => {
    exited = new Error(`the server exited (${code}): ${stderr.slice(-2000)}`);
    for (const w of waiting.splice(0)) w.reject(exited);
  });
  let partial = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    partial += chunk.toString();
    const complete = partial.split("\n");
    partial = complete.pop()!;
    for (const text of complete) {
      const line = JSON.parse(text) as TLine; // every line on standard output is JSON, or this throws
      lines.push(line);
      for (const w of waiting.filter((w) => w.test(line))) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const listening = await lineWhere((l) => l.msg === "listening");
  origin = `http://127.0.0.1:${listening.port}`;
}, 120_000);

afterAll(async () => {
  if (child) await killHard(child);
  await database?.close();
});

/**
 * One request, and the lines it logged: everything from the previous request's last line to its
 * own "request" line (logged when it ends). The server does nothing between requests, and the
 * requests here go one at a time, so whatever falls in between is this request's.
 */
async function logged(path: string, init: RequestInit = {}): Promise<{ response: Response; body: string; id: string; lines: TLine[] }> {
  const from = lines.length;
  const response = await fetch(`${origin}${path}`, { redirect: "manual", ...init });
  const body = await response.text();
  const id = response.headers.get("x-request-id") ?? "";
  const end = await lineWhere((l) => l.msg === "request" && l.requestId === id);
  return { response, body, id, lines: lines.slice(from, lines.indexOf(end) + 1) };
}

describe("the log lines of a request", () => {
  it("every line carries the request's id: the caller's when well-formed, a new one sent back otherwise", async () => {
    const body = JSON.stringify(intakeTicket("hd-logs-1"));
    const delivered = await logged("/api/intake/tickets", {
      method: "POST",
      body,
      headers: { ...webhookHeaders(body, intakeSecret()), "x-request-id": "helpdesk-req-0001" },
    });
    expect(delivered.response.status).toBe(201);
    expect(delivered.id).toBe("helpdesk-req-0001");
    expect(delivered.lines.map((l) => l.msg)).toEqual(["intake delivery", "request"]);
    const ticketId = delivered.lines[0]!.ticketId;
    expect(typeof ticketId).toBe("string");
    // The ticket, once the route knows it, is on every later line of the request.
    expect(delivered.lines[1]).toMatchObject({
      requestId: "helpdesk-req-0001",
      ticketId,
      method: "POST",
      path: "/api/intake/tickets",
      status: 201,
    });

    const cases = [
      await logged("/api/intake/tickets", {
        method: "POST",
        body,
        headers: { ...webhookHeaders(body, intakeSecret()), "webhook-signature": "v1,AAAA", "x-request-id": "short" },
      }),
      await logged("/api/health", { headers: { "x-request-id": "a b c d e f g h" } }),
      await logged(`/api/outbox?limit=5`, { headers: outboxHeaders("/api/outbox?limit=5") }),
      await logged("/api/auth/csrf"),
      await logged("/api/auth/session"),
    ];
    // (Health answers 503 on the in-memory database, whose migrations bypass Prisma's history table.)
    expect(cases.map((c) => c.response.status)).toEqual([401, expect.any(Number), 200, 200, 200]);
    for (const c of cases) {
      // Malformed or absent: replaced, and the replacement is what the response and the lines carry.
      expect(c.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(c.lines.length).toBeGreaterThan(0);
      for (const line of c.lines) expect(line.requestId, JSON.stringify(line)).toBe(c.id);
    }
    expect(cases[0]!.lines.map((l) => l.msg)).toEqual(["intake delivery", "request"]);

    // next-auth's own line for a refused sign-in is the request's too.
    const csrf = cases[3]!;
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
    const csrfCookie = csrf.response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .find((c) => c.includes("csrf-token="))!;
    const refused = await logged("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie, origin, "x-request-id": "signin-req-0001" },
      body: new URLSearchParams({ csrfToken, email: "reviewer@example.com", password: "not-the-password", callbackUrl: `${origin}/` }),
    });
    expect(refused.lines.map((l) => [l.msg, l.requestId])).toEqual([
      ["auth: CredentialsSignin (invalid_credentials)", "signin-req-0001"],
      ["request", "signin-req-0001"],
    ]);
    expect(cases[0]!.lines[0]).toMatchObject({ level: "warn", status: 401, error: "invalid_signature" });
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  it("concurrent requests do not share their ids", async () => {
    const sent = Array.from({ length: 8 }, (_, i) => ({ externalId: `hd-logs-c${i}`, requestId: `concurrent-req-${i}-0000` }));
    await Promise.all(
      sent.map(async ({ externalId, requestId }) => {
        const body = JSON.stringify(intakeTicket(externalId));
        const response = await fetch(`${origin}/api/intake/tickets`, {
          method: "POST",
          body,
          headers: { ...webhookHeaders(body, intakeSecret()), "x-request-id": requestId },
        });
        expect(response.status).toBe(201);
        expect(response.headers.get("x-request-id")).toBe(requestId);
      }),
    );
    for (const { externalId, requestId } of sent) {
      const delivery = await lineWhere((l) => l.msg === "intake delivery" && l.externalId === externalId);
      expect(delivery.requestId).toBe(requestId);
      const ended = await lineWhere((l) => l.msg === "request" && l.requestId === requestId);
      expect(ended.ticketId).toBe(delivery.ticketId);
    }
  });

  it("no secret reaches a line: not the intake secret, a signature, a password, a session cookie or an authorization header", async () => {
    const wrongPassword = `wrong-password-${Date.now().toString(36)}`;
    await expect(signIn(origin, "reviewer@example.com", wrongPassword)).rejects.toThrow(/failed/);
    const session = await signIn(origin, "reviewer@example.com", DEMO_PASSWORD);
    const cookieValue = session.split("=").slice(1).join("=");
    expect(cookieValue.length).toBeGreaterThan(20);
    const bearer = `Bearer token-${Date.now().toString(36)}-0123456789abcdef`;

    const body = JSON.stringify(intakeTicket("hd-logs-secrets"));
    const signed = webhookHeaders(body, intakeSecret());
    const withSecrets = await logged("/api/intake/tickets", {
      method: "POST",
      body,
      headers: { ...signed, cookie: session, authorization: bearer },
    });
    expect(withSecrets.response.status).toBe(201);
    const outboxPath = "/api/outbox?limit=1";
    const outbox = outboxHeaders(outboxPath);
    expect((await logged(outboxPath, { headers: { ...outbox, cookie: session, authorization: bearer } })).response.status).toBe(200);
    await logged("/api/auth/session", { headers: { cookie: session } });

    const secrets = {
      "the intake secret": intakeSecret(),
      "the session secret": process.env.AUTH_SECRET!,
      "an intake body's signature": signed["webhook-signature"]!.slice("v1,".length),
      "an outbox request's signature": outbox[REQUEST_SIGNATURE_HEADER]!.slice("sha256=".length),
      "the demo password": DEMO_PASSWORD,
      "a wrong password": wrongPassword,
      "the session cookie": cookieValue,
      "an authorization header": bearer,
    };
    // Lines were written: the sign-ins, the deliveries; and none holds any of them.
    expect(lines.length).toBeGreaterThan(10);
    for (const [what, secret] of Object.entries(secrets)) {
      expect(stdout.includes(secret), `${what} on standard output`).toBe(false);
      expect(stderr.includes(secret), `${what} on standard error`).toBe(false);
    }
  });
});

function outboxHeaders(pathAndQuery: string): Record<string, string> {
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    [TIMESTAMP_HEADER]: String(timestamp),
    [REQUEST_SIGNATURE_HEADER]: signRequest({ secret: intakeSecret(), timestamp, method: "GET", pathAndQuery }),
  };
}
