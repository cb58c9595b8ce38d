// Where a notification may go: never inside. A webhook URL that resolves to loopback, the private
// network, link-local (a cloud's metadata service), the unspecified address or the app itself is
// refused when saved and again when delivered; a host named in NOTIFY_WEBHOOK_ALLOWED_HOSTS is let
// through; and a failed delivery says the same for a closed port as for an open one that speaks no
// HTTP, so the Jobs page cannot be used to map the ports behind the receiver. Real sockets on loopback.
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestDb } from "../../testing/db";
import { openJobs, startTestWorker } from "../../testing/queue";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { appBaseUrl } from "../env";
import { QUEUE_SCHEMA, QUEUES } from "../jobs/queue";
import { notificationJobId } from "../contracts/approval-notification";
import { isAppError } from "../contracts/app-error";
import { NOTIFY_URL_KEY } from "../policy/notification-settings";
import { updateNotificationSettings } from "../policy/update-notification-settings";
import { checkWebhookTarget, isInternalAddress } from "../policy/webhook-target";

const testDb = useTestDb(seedDemo);
const SECRET = "whsec_" + Buffer.from("notification secret for tests, 32+").toString("base64");

/** The allowlist in force from now on (the settings are read once per process; this reads them again). */
function allowHosts(hosts: string) {
  vi.stubEnv("NOTIFY_WEBHOOK_ALLOWED_HOSTS", hosts);
  delete (globalThis as { __countersignEnv?: unknown }).__countersignEnv;
}

let receiver: Server;
let receiverPort: number;
let received = 0;

beforeAll(async () => {
  receiver = createHttpServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
});
afterAll(async () => new Promise<void>((resolve) => receiver.close(() => resolve())));
afterEach(() => allowHosts(""));

const admin = () => user(testDb().client, "ADMIN");

async function save(webhookUrl: string) {
  return updateNotificationSettings({ changes: { webhookUrl, webhookSecret: SECRET }, actor: await admin() });
}

/** The refusal's code, field and message, or null when saved. */
async function refusalOf(webhookUrl: string) {
  try {
    await save(webhookUrl);
    return null;
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { code: error.code, field: error.field, message: error.message };
  }
}

/** A waiting request's first delivery attempt: the job's state and its error, as Admin → Jobs shows them. */
async function firstAttempt(): Promise<{ state: string; message: string | null }> {
  const db = testDb();
  const request = await approvalFor(db.client, await tabletTicket(db.client, await freshOrder(db.client)));
  const id = notificationJobId("approval.waiting", request.id);
  const read = async () =>
    (
      await db.client.$queryRawUnsafe<{ state: string; output: { message?: string } | null }[]>(
        `SELECT state::text, output FROM ${QUEUE_SCHEMA}.job WHERE id = $1::uuid AND name = $2`,
        id,
        QUEUES.approvalNotify,
      )
    )[0]!;
  const worker = await startTestWorker(db);
  try {
    const deadline = Date.now() + 25_000;
    while (!["retry", "failed", "completed"].includes((await read()).state)) {
      if (Date.now() > deadline) throw new Error("the notification was never attempted");
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await worker.stop(5_000);
  }
  const job = await read();
  // Later attempts are not this test's business.
  await db.client.$executeRawUnsafe(`DELETE FROM ${QUEUE_SCHEMA}.job WHERE name = $1`, QUEUES.approvalNotify);
  expect(await openJobs(db)).toBe(0);
  return { state: job.state, message: job.output?.message ?? null };
}

const INTERNAL_URLS = [
  "http://127.0.0.1:5432/",
  "http://[::1]/hook",
  "http://0.0.0.0/hook",
  "http://10.0.0.1/hook",
  "http://169.254.169.254/latest/meta-data/",
  "http://[fe80::1]/hook",
  "http://[::ffff:127.0.0.1]/hook",
  "http://[::ffff:a9fe:a9fe]/hook",
  "http://2130706433/hook",
  "http://localhost:5432/",
];

describe("the webhook's target", () => {
  it.each(INTERNAL_URLS)("is refused when saved: %s, with the URL field's message, and nothing stored", async (url) => {
    const db = testDb();
    const before = await db.client.setting.findUnique({ where: { key: NOTIFY_URL_KEY } });
    const refusal = await refusalOf(url);
    expect(refusal).toMatchObject({ code: "invalid", field: "webhookUrl" });
    expect(refusal!.message).toMatch(/internal address/);
    expect(await db.client.setting.findUnique({ where: { key: NOTIFY_URL_KEY } })).toEqual(before);
  });

  it("refuses the app's own address even when its host is allowed", async () => {
    allowHosts("localhost");
    const own = `${appBaseUrl()}/api/queue`;
    expect(new URL(own).hostname).toBe("localhost");
    expect(await refusalOf(own)).toMatchObject({ code: "invalid", field: "webhookUrl", message: expect.stringMatching(/this app itself/) });
    expect(await checkWebhookTarget(own)).toMatchObject({ ok: false });
  });

  it("accepts a host on the allowlist and delivers to it; refuses it at delivery once it is off the list", async () => {
    allowHosts("localhost");
    const url = `http://localhost:${receiverPort}/hook`;
    expect(await refusalOf(url)).toBeNull();
    received = 0;
    expect(await firstAttempt()).toEqual({ state: "completed", message: null });
    expect(received).toBe(1);

    // Saved while allowed; delivered after the list changed (as a name whose address changed would be).
    allowHosts("");
    const attempt = await firstAttempt();
    expect(attempt.state).toBe("retry");
    expect(attempt.message).toMatch(/^approval notification: http:\/\/localhost:\d+ refused: must not point at an internal address/);
    expect(received).toBe(1);
  });

  it("says the same for a closed port, an open port that speaks no HTTP, and one that resets", async () => {
    allowHosts("127.0.0.1");
    const sockets: Socket[] = [];
    const servers: TcpServer[] = [
      // Another protocol's greeting, then nothing that parses as HTTP.
      createTcpServer((socket) => sockets.push(socket.end("SSH-2.0-OpenSSH_9.6\r\n"))),
      // A connection reset as soon as it is made.
      createTcpServer((socket) => socket.resetAndDestroy()),
    ];
    const ports: number[] = [];
    for (const s of servers) {
      await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
      ports.push((s.address() as AddressInfo).port);
    }
    // A port nobody listens on: one just closed.
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    ports.unshift((closed.address() as AddressInfo).port);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    try {
      const messages: string[] = [];
      for (const port of ports) {
        expect(await refusalOf(`http://127.0.0.1:${port}/hook`)).toBeNull();
        const attempt = await firstAttempt();
        expect(attempt.state).toBe("retry");
        messages.push(attempt.message!.replace(`:${port}`, ":PORT"));
      }
      expect(messages).toEqual(Array(3).fill("approval notification: delivery to http://127.0.0.1:PORT failed (no HTTP answer)"));
    } finally {
      for (const socket of sockets) socket.destroy();
      for (const s of servers) await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });

  it("keeps a reached receiver's status in the error", async () => {
    allowHosts("127.0.0.1");
    const teapot = createHttpServer((_req, res) => res.writeHead(418).end());
    await new Promise<void>((resolve) => teapot.listen(0, "127.0.0.1", resolve));
    const port = (teapot.address() as AddressInfo).port;
    try {
      expect(await refusalOf(`http://127.0.0.1:${port}/hook`)).toBeNull();
      expect(await firstAttempt()).toEqual({ state: "retry", message: `approval notification: http://127.0.0.1:${port} answered 418` });
    } finally {
      await new Promise<void>((resolve) => teapot.close(() => resolve()));
    }
  });
});

describe("internal addresses", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "64:ff9b::a9fe:a9fe",
    "2002:7f00:1::",
    "not an address",
  ])("%s is internal", (address) => expect(isInternalAddress(address)).toBe(true));

  it.each(["93.184.216.34", "172.32.0.1", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"])("%s is not", (address) =>
    expect(isInternalAddress(address)).toBe(false),
  );
});
