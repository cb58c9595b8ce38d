// Approval notifications through the real queue and worker to a real HTTP receiver on this machine:
// a request that starts waiting is announced, a request close to its expiry is reminded once, each
// delivery signed (Standard Webhooks) with a webhook-id that a retry repeats, and no message carries
// the webhook secret, the approval's digest or the customer's email. The expiry sweep's timing too.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { useTestDb } from "../../testing/db";
import { drainQueue, openJobs, startTestWorker } from "../../testing/queue";
import { approvalFor as approvalFor_, freshOrder as freshOrder_, tabletTicket as tabletTicket_, user } from "../../testing/runs";
import { refusalCode } from "../../testing/refusals";
import { seedDemo } from "../../prisma/seed/demo";
import { appBaseUrl } from "../env";
import { QUEUE_SCHEMA, QUEUES } from "../jobs/queue";
import { verifyWebhook } from "../intake/webhook-signature";
import { notificationJobId, notificationWebhookId } from "../contracts/approval-notification";
import {
  loadNotificationSettings,
  notificationFingerprint,
  NOTIFY_LEAD_KEY,
  NOTIFY_SECRET_KEY,
  NOTIFY_URL_KEY,
} from "../policy/notification-settings";
import { updateNotificationSettings } from "../policy/update-notification-settings";
import { decideApproval } from "./decide-approval";
import { remindExpiringApprovals } from "./remind-approvals";
import { expirePendingApprovals } from "./sweep-approvals";

// The receiver listens on loopback, which only a host on the allowlist may reach.
vi.hoisted(() => {
  process.env.NOTIFY_WEBHOOK_ALLOWED_HOSTS = "127.0.0.1";
});

const testDb = useTestDb(seedDemo);
const onPostgres = !!process.env.DATABASE_URL;
const SECRET = "whsec_" + Buffer.from("notification secret for tests, 32+").toString("base64");

const freshOrder = () => freshOrder_(testDb().client);
const tabletTicket = (world: { email: string; orderId: string }) => tabletTicket_(testDb().client, world);
const approvalFor = (tId: string) => approvalFor_(testDb().client, tId);

// ─── the receiver ────────────────────────────────────────────────────────────────────────────────

interface TDelivery {
  headers: Record<string, string>;
  body: string;
  status: number;
}
let server: Server;
let receiverUrl: string;
const deliveries: TDelivery[] = [];
/** The answers the receiver gives, in order; 200 once they run out. */
const planned: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const status = planned.shift() ?? 200;
      deliveries.push({
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString("utf8"),
        status,
      });
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // A path like an incoming webhook's, whose last part is its token.
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T000/B000/tokenpart`;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  deliveries.length = 0;
  planned.length = 0;
});

async function configure(changes: { webhookUrl?: string; webhookSecret?: string; reminderLeadMinutes?: number }) {
  return updateNotificationSettings({ changes, actor: await user(testDb().client, "ADMIN") });
}

async function notifyJobs(approvalId?: string): Promise<{ id: string; state: string; data: { approvalId: string; event: string } }[]> {
  const rows = await testDb().client.$queryRawUnsafe<{ id: string; state: string; data: { approvalId: string; event: string } }[]>(
    `SELECT id::text, state::text, data FROM ${QUEUE_SCHEMA}.job WHERE name = $1 ORDER BY created_on`,
    QUEUES.approvalNotify,
  );
  return approvalId ? rows.filter((r) => r.data.approvalId === approvalId) : rows;
}

const verify = (d: TDelivery) =>
  verifyWebhook({ secrets: [SECRET], headers: { get: (name) => d.headers[name] ?? null }, payload: d.body, toleranceSeconds: 300 });

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// ─── the tests ───────────────────────────────────────────────────────────────────────────────────

describe("approval notifications", () => {
  it("enqueues nothing while no webhook is configured, and a request then waits in silence", async () => {
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    expect(request.status).toBe("pending");
    expect(await notifyJobs()).toEqual([]);
    expect(await remindExpiringApprovals({ now: new Date(request.expiresAt.getTime() - 60_000) })).toEqual({ reminded: 0 });
    expect(await testDb().client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ remindedAt: null });
  });

  it("announces a waiting request: enqueued with it, signed, its stable webhook-id, the ticket's link, and no secret", async () => {
    const db = testDb();
    await configure({ webhookUrl: receiverUrl, webhookSecret: SECRET });
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    // Committed with the request, before any worker ran: one job, with the id its event derives.
    expect(await notifyJobs(request.id)).toEqual([
      {
        id: notificationJobId("approval.waiting", request.id),
        state: "created",
        data: { approvalId: request.id, event: "approval.waiting" },
      },
    ]);

    await drainQueue(db);
    expect(deliveries).toHaveLength(1);
    const [d] = deliveries;
    expect(verify(d!)).toMatchObject({ ok: true, webhookId: notificationWebhookId("approval.waiting", request.id) });
    expect(d!.headers["webhook-id"]).toBe(`approval.waiting.${request.id}`);
    expect(d!.headers["content-type"]).toBe("application/json");

    const ticket = await db.client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } });
    const link = `${appBaseUrl()}/tickets/${ticket.id}`;
    const body = JSON.parse(d!.body);
    expect(body.text).toBe(
      `Approval waiting: ticket #${ticket.number}, a refund of 79.00 USD, needs a reviewer's approval. It expires ${request.expiresAt.toISOString().slice(0, 10)} ${request.expiresAt.toISOString().slice(11, 16)} UTC. <${link}|Open ticket #${ticket.number}>`,
    );
    expect(body.countersign).toEqual({
      event: "approval.waiting",
      ticket: { number: ticket.number, url: link },
      waiting: "refund",
      refund: { amountCents: 7_900, currency: "USD" },
      requiredRole: "REVIEWER",
      expiresAt: request.expiresAt.toISOString(),
    });
    // Nothing to decide with, nothing to sign with, nothing about the customer beyond the link.
    for (const secret of [SECRET, SECRET.slice(6), request.digest, ticket.customerEmail, ticket.subject, "tokenpart"])
      expect(d!.body + JSON.stringify(d!.headers)).not.toContain(secret);
    expect(await openJobs(db)).toBe(0);
  });

  it("retries a failed delivery with the same webhook-id, and the same body, signed afresh", async () => {
    const db = testDb();
    await configure({ webhookUrl: receiverUrl, webhookSecret: SECRET });
    planned.push(500, 404);
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    const worker = await startTestWorker(db);
    try {
      for (const n of [1, 2, 3]) {
        await until(() => deliveries.length >= n, `delivery ${n}`);
        // The backoff's wait (10 s and more) brought forward: the retry itself is the queue's.
        if (n < 3) {
          await until(async () => (await notifyJobs(request.id))[0]?.state === "retry", `the job to wait for its retry after attempt ${n}`);
          await db.client.$executeRawUnsafe(
            `UPDATE ${QUEUE_SCHEMA}.job SET start_after = now() WHERE name = $1 AND state = 'retry'`,
            QUEUES.approvalNotify,
          );
        }
      }
      await until(async () => (await notifyJobs(request.id))[0]?.state === "completed", "the job to complete");
    } finally {
      await worker.stop(5_000);
    }
    expect(deliveries.map((d) => d.status)).toEqual([500, 404, 200]);
    expect(new Set(deliveries.map((d) => d.headers["webhook-id"]))).toEqual(new Set([`approval.waiting.${request.id}`]));
    expect(new Set(deliveries.map((d) => d.body)).size).toBe(1);
    for (const d of deliveries) expect(verify(d)).toMatchObject({ ok: true });
    const [job] = await db.client.$queryRawUnsafe<{ retry_count: number; output: unknown }[]>(
      `SELECT retry_count, output FROM ${QUEUE_SCHEMA}.job WHERE id = $1::uuid AND name = $2`,
      notificationJobId("approval.waiting", request.id),
      QUEUES.approvalNotify,
    );
    expect(job!.retry_count).toBe(2);
  });

  it("keeps a failed attempt's error to the receiver's origin: the URL's path (its token) is not in it", async () => {
    const db = testDb();
    await configure({ webhookUrl: receiverUrl, webhookSecret: SECRET });
    planned.push(503);
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    const worker = await startTestWorker(db);
    try {
      await until(async () => (await notifyJobs(request.id))[0]?.state === "retry", "the failed attempt");
    } finally {
      await worker.stop(5_000);
    }
    const [job] = await db.client.$queryRawUnsafe<{ output: { message: string } }[]>(
      `SELECT output FROM ${QUEUE_SCHEMA}.job WHERE id = $1::uuid AND name = $2`,
      notificationJobId("approval.waiting", request.id),
      QUEUES.approvalNotify,
    );
    expect(job!.output.message).toBe(`approval notification: ${new URL(receiverUrl).origin} answered 503`);
    await db.client.$executeRawUnsafe(
      `UPDATE ${QUEUE_SCHEMA}.job SET start_after = now() WHERE name = $1 AND state = 'retry'`,
      QUEUES.approvalNotify,
    );
    await drainQueue(db);
    expect(deliveries.map((d) => d.status)).toEqual([503, 200]);
  });

  it("announces nothing for a request decided before its job ran", async () => {
    const db = testDb();
    await configure({ webhookUrl: receiverUrl, webhookSecret: SECRET });
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    await decideApproval({
      approvalId: request.id,
      decision: "reject",
      note: "Not this one.",
      digest: request.digest,
      actor: await user(db.client, "REVIEWER"),
    });
    await drainQueue(db);
    expect(deliveries).toEqual([]);
    expect((await notifyJobs(request.id)).map((j) => j.state)).toEqual(["completed"]);
  });

  it("reminds once, within the lead time before expiry, never before it and never after expiry", async () => {
    const db = testDb();
    await configure({ webhookUrl: receiverUrl, webhookSecret: SECRET, reminderLeadMinutes: 45 });
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    await drainQueue(db);
    deliveries.length = 0;
    const at = (msBeforeExpiry: number) => new Date(request.expiresAt.getTime() - msBeforeExpiry);

    // Requests of earlier tests in this database were made earlier, so they expire earlier: expire
    // them first, so that only this one is due.
    await expirePendingApprovals({ now: at(1) });
    expect(await remindExpiringApprovals({ now: at(45 * 60_000 + 1) })).toEqual({ reminded: 0 });
    expect(await remindExpiringApprovals({ now: at(45 * 60_000) })).toEqual({ reminded: 1 });
    expect(await remindExpiringApprovals({ now: at(10 * 60_000) })).toEqual({ reminded: 0 });
    expect((await db.client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).remindedAt).toEqual(at(45 * 60_000));
    expect((await notifyJobs(request.id)).filter((j) => j.data.event === "approval.expiring")).toEqual([
      {
        id: notificationJobId("approval.expiring", request.id),
        state: "created",
        data: { approvalId: request.id, event: "approval.expiring" },
      },
    ]);

    await drainQueue(db);
    expect(deliveries).toHaveLength(1);
    expect(verify(deliveries[0]!)).toMatchObject({ ok: true, webhookId: `approval.expiring.${request.id}` });
    const body = JSON.parse(deliveries[0]!.body);
    expect(body.text).toMatch(/^Approval expiring soon: ticket #\d+, a refund of 79\.00 USD, needs a reviewer's approval\. It expires /);
    expect(body.countersign.event).toBe("approval.expiring");

    // Another request, asleep past its expiry: the expiry sweep's, never a reminder.
    const late = await approvalFor(await tabletTicket(await freshOrder()));
    expect(await remindExpiringApprovals({ now: new Date(late.expiresAt.getTime() + 1) })).toEqual({ reminded: 0 });
  });

  it("expires a request on time: pending at its expiry, expired a millisecond after", async () => {
    const db = testDb();
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    await expirePendingApprovals({ now: request.expiresAt });
    expect((await db.client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("pending");
    await expirePendingApprovals({ now: new Date(request.expiresAt.getTime() + 1) });
    expect((await db.client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("expired");
    expect(await db.client.auditEvent.count({ where: { action: "approval.expired", subjectId: request.id } })).toBe(1);
  });

  it.runIf(onPostgres)("reminds each request once when four sweeps race (PostgreSQL)", async () => {
    await configure({ webhookUrl: receiverUrl, webhookSecret: SECRET, reminderLeadMinutes: 60 });
    const requests = [];
    for (let i = 0; i < 3; i++) requests.push(await approvalFor(await tabletTicket(await freshOrder())));
    const now = new Date(requests[0]!.expiresAt.getTime() - 30 * 60_000);
    await expirePendingApprovals({ now });
    const results = await Promise.all(Array.from({ length: 4 }, () => remindExpiringApprovals({ now })));
    expect(results.reduce((sum, r) => sum + r.reminded, 0)).toBe(3);
    for (const r of requests) expect((await notifyJobs(r.id)).filter((j) => j.data.event === "approval.expiring")).toHaveLength(1);
  });
});

describe("the notification settings", () => {
  it("are an admin's to change, audited by origin and fingerprint: never the secret, never the URL's token", async () => {
    const db = testDb();
    for (const role of ["REVIEWER", "SPECIALIST", "LEAD"] as const)
      expect(
        await refusalCode(updateNotificationSettings({ changes: { reminderLeadMinutes: 30 }, actor: await user(db.client, role) })),
      ).toBe("forbidden");
    const admin = await user(db.client, "ADMIN");
    const other = `whsec_${Buffer.from("another notification secret, 32 bytes").toString("base64")}`;
    const url = "https://hooks.example.com/services/T1/B1/xyzzy-token";
    const result = await updateNotificationSettings({ changes: { webhookUrl: url, webhookSecret: other }, actor: admin });
    expect(result.settings).toEqual({
      webhook: { origin: "https://hooks.example.com", fingerprint: notificationFingerprint(url) },
      secret: { fingerprint: notificationFingerprint(other) },
      reminderLeadMinutes: expect.any(Number),
    });
    const event = await db.client.auditEvent.findFirstOrThrow({
      where: { action: "settings.changed", actorId: admin.id },
      orderBy: { seq: "desc" },
    });
    const written = JSON.stringify({ inputs: event.inputs, subjectId: event.subjectId, policyDecision: event.policyDecision });
    for (const secret of [other, other.slice(6), "xyzzy-token", url]) expect(written).not.toContain(secret);
    expect(written).toContain(notificationFingerprint(other));
    // The same values again change nothing and record nothing.
    const events = await db.client.auditEvent.count({ where: { action: "settings.changed" } });
    expect((await updateNotificationSettings({ changes: { webhookUrl: url, webhookSecret: other }, actor: admin })).changed).toEqual([]);
    expect(await db.client.auditEvent.count({ where: { action: "settings.changed" } })).toBe(events);
  });

  it("are stored encrypted: the Setting rows hold neither the URL nor the secret, and deliveries are signed with the secret", async () => {
    const db = testDb();
    await configure({ webhookUrl: receiverUrl, webhookSecret: SECRET });
    const rows = await db.client.$queryRawUnsafe<{ key: string; value: string }[]>(
      `SELECT "key", "value" #>> '{}' AS "value" FROM "Setting" WHERE "key" = ANY($1::text[])`,
      [NOTIFY_URL_KEY, NOTIFY_SECRET_KEY],
    );
    expect(rows.map((r) => r.key).sort()).toEqual([NOTIFY_SECRET_KEY, NOTIFY_URL_KEY].sort());
    for (const row of rows) {
      expect(row.value).toMatch(/^enc:v1:/);
      for (const plain of [SECRET, SECRET.slice(6), receiverUrl, "tokenpart", new URL(receiverUrl).host])
        expect(row.value).not.toContain(plain);
    }
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    await drainQueue(db);
    // Earlier tests' requests may still be announced meanwhile: this one's delivery, by its id.
    const mine = deliveries.filter((d) => d.headers["webhook-id"] === notificationWebhookId("approval.waiting", request.id));
    expect(mine).toHaveLength(1);
    expect(() => verify(mine[0]!)).not.toThrow();
  });

  it("read a secret stored in plain text before encryption, and write it encrypted at the next save", async () => {
    const db = testDb();
    const admin = await user(db.client, "ADMIN");
    // As an older version stored them.
    for (const [key, value] of [
      [NOTIFY_URL_KEY, receiverUrl],
      [NOTIFY_SECRET_KEY, SECRET],
    ] as const)
      await db.client.setting.upsert({ where: { key }, create: { key, value }, update: { value } });
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    await drainQueue(db);
    const mine = deliveries.filter((d) => d.headers["webhook-id"] === notificationWebhookId("approval.waiting", request.id));
    expect(mine).toHaveLength(1);
    expect(() => verify(mine[0]!)).not.toThrow();
    // A save that changes only the lead time writes the secrets encrypted too, and they still sign.
    const lead = (await loadNotificationSettings(db.client))[NOTIFY_LEAD_KEY];
    await updateNotificationSettings({ changes: { reminderLeadMinutes: lead === 45 ? 46 : 45 }, actor: admin });
    for (const key of [NOTIFY_URL_KEY, NOTIFY_SECRET_KEY]) {
      const row = await db.client.setting.findUniqueOrThrow({ where: { key } });
      expect(row.value).toMatch(/^enc:v1:/);
    }
    expect(await loadNotificationSettings(db.client)).toMatchObject({ [NOTIFY_URL_KEY]: receiverUrl, [NOTIFY_SECRET_KEY]: SECRET });
  });

  it("refuse a URL without a secret, a secret too short, and a lead time past a day", async () => {
    const db = testDb();
    const admin = await user(db.client, "ADMIN");
    // This file's database has a secret by now; a fresh installation has none.
    await db.client.setting.deleteMany({ where: { key: { startsWith: "notify." } } });
    expect(await refusalCode(updateNotificationSettings({ changes: { webhookUrl: "https://hooks.example.com/x" }, actor: admin }))).toBe(
      "invalid",
    );
    expect(
      await refusalCode(
        updateNotificationSettings({ changes: { webhookUrl: "https://hooks.example.com/x", webhookSecret: "short" }, actor: admin }),
      ),
    ).toBe("invalid");
    expect(
      await refusalCode(
        updateNotificationSettings({ changes: { webhookUrl: "ftp://hooks.example.com/x", webhookSecret: SECRET }, actor: admin }),
      ),
    ).toBe("invalid");
    expect(await refusalCode(updateNotificationSettings({ changes: { reminderLeadMinutes: 24 * 60 + 1 }, actor: admin }))).toBe("invalid");
    expect(await db.client.setting.count({ where: { key: { startsWith: "notify." } } })).toBe(0);
  });
});
