// GET /api/audit/checkpoints over real HTTP against the real server: signed like the outbox (a
// timestamp and an HMAC over it, the method and the path with its query), its answer signed too, and
// the checkpoints the server's own job signed, each verifiable with the public key it publishes.
import { createHash, createHmac, createPublicKey, verify } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { canonicalJson } from "../lib/contracts/canonical";
import { verifyAuditExport } from "../lib/audit/verify-audit-export";
import { E2E_INTAKE_SECRET, expect, signedInPage, test } from "./fixtures";
import { e2eDataDir } from "../testing/e2e-data-dir";

const PATH = "/api/audit/checkpoints";

const now = () => Math.floor(Date.now() / 1000);
const requestSignature = (timestamp: number, pathAndQuery: string, secret = E2E_INTAKE_SECRET) =>
  `sha256=${createHmac("sha256", secret).update(`${timestamp}\nGET\n${pathAndQuery}`).digest("hex")}`;
const answerSignature = (timestamp: number, pathAndQuery: string, body: string) =>
  `sha256=${createHmac("sha256", E2E_INTAKE_SECRET).update(`${timestamp}\n${pathAndQuery}\n${body}`).digest("hex")}`;

function signedGet(request: APIRequestContext, pathAndQuery: string, options: { timestamp?: number; signature?: string } = {}) {
  const timestamp = options.timestamp ?? now();
  const signature = options.signature ?? requestSignature(timestamp, pathAndQuery);
  return {
    timestamp,
    response: request.get(pathAndQuery, {
      headers: { "x-countersign-timestamp": String(timestamp), "x-countersign-signature": signature },
    }),
  };
}

interface TCheckpoint {
  position: number;
  hash: string;
  signature: string;
  keyId: string;
  [field: string]: unknown;
}

/** The server's data directory (scripts/e2e-server.ts): its key's public half and its checkpoint file. */
const dataDir = () => join(test.info().project.testDir, "..", e2eDataDir());

test("unsigned, wrongly signed, moved and replayed requests are refused like the outbox refuses them", async ({ request }) => {
  const unsigned = await request.get(PATH);
  expect(unsigned.status()).toBe(401);
  expect(await unsigned.json()).toMatchObject({ error: "invalid_signature" });
  expect(unsigned.headers()["x-countersign-signature"]).toBeUndefined();

  const wrong = await signedGet(request, PATH, { signature: requestSignature(now(), PATH, "not-the-intake-secret-0123456789abcdef") })
    .response;
  expect(wrong.status()).toBe(401);
  expect(await wrong.json()).toMatchObject({ error: "invalid_signature" });

  // Signed for one page, sent for another.
  const moved = await signedGet(request, `${PATH}?after=0`, { signature: requestSignature(now(), PATH) }).response;
  expect(moved.status()).toBe(401);

  // A request captured more than five minutes ago and sent again: its signature is right, its time is not.
  const old = now() - 301;
  const replayed = await signedGet(request, PATH, { timestamp: old }).response;
  const outboxReplayed = await signedGet(request, "/api/outbox", { timestamp: old }).response;
  expect(replayed.status()).toBe(401);
  expect(outboxReplayed.status()).toBe(401);
  expect(await replayed.json()).toEqual(await outboxReplayed.json());
});

test("a signed request gets the public key and the signed checkpoints, in a signed answer", async ({ request }) => {
  // The server's worker signs a checkpoint every minute; the demo data gives it something to sign.
  test.setTimeout(180_000);
  let page: { publicKey: string; keyId: string; checkpoints: TCheckpoint[]; next: number | null } | undefined;
  for (const deadline = Date.now() + 150_000; !page?.checkpoints.length;) {
    if (page) {
      expect(Date.now(), "no checkpoint signed within 150 s").toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 2_000));
    }
    const { timestamp, response } = signedGet(request, PATH);
    const answer = await response;
    expect(answer.status()).toBe(200);
    const body = await answer.text();
    expect(answer.headers()["x-countersign-signature"]).toBe(answerSignature(timestamp, PATH, body));
    page = JSON.parse(body);
  }

  const keyFile = join(dataDir(), "audit-signing-key.pub.pem");
  expect(existsSync(keyFile)).toBe(true);
  expect(page!.publicKey).toBe(readFileSync(keyFile, "utf8"));
  const publicKey = createPublicKey(page!.publicKey);
  const readFile = () =>
    readFileSync(join(dataDir(), "audit-checkpoints.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as TCheckpoint);
  // The file is written just after the checkpoint's transaction commits.
  await expect.poll(() => readFile().length, { timeout: 5_000 }).toBeGreaterThanOrEqual(page!.checkpoints.at(-1)!.position);
  const file = readFile();
  for (const checkpoint of page!.checkpoints) {
    const { hash, signature, ...body } = checkpoint;
    expect(checkpoint.keyId).toBe(page!.keyId);
    expect(createHash("sha256").update(canonicalJson(body)).digest("hex")).toBe(hash);
    expect(verify(null, Buffer.from(hash), publicKey, Buffer.from(signature, "base64"))).toBe(true);
    // Exactly as the checkpoint file holds it, field for field and in the same order.
    expect(JSON.stringify(checkpoint)).toBe(JSON.stringify(file.find((c) => c.position === checkpoint.position)));
  }

  const { timestamp, response } = signedGet(request, `${PATH}?after=0&limit=1`);
  const first = await response;
  const text = await first.text();
  expect(first.headers()["x-countersign-signature"]).toBe(answerSignature(timestamp, `${PATH}?after=0&limit=1`, text));
  expect(JSON.parse(text)).toMatchObject({ checkpoints: [{ position: 1, prevHash: "0".repeat(64) }], next: 1 });
});

test("a query that is not a position or a page size is refused with 400, naming it", async ({ request }) => {
  for (const query of ["?after=abc", "?limit=0", "?limit=1001", "?afer=3"]) {
    const { timestamp, response } = signedGet(request, `${PATH}${query}`);
    const answer = await response;
    expect(answer.status(), query).toBe(400);
    const text = await answer.text();
    expect(answer.headers()["x-countersign-signature"]).toBe(answerSignature(timestamp, `${PATH}${query}`, text));
    expect(JSON.parse(text)).toMatchObject({
      error: "invalid_query",
      message: expect.stringMatching(query === "?afer=3" ? /afer/ : new RegExp(`^${query.slice(1, query.indexOf("="))}: `)),
    });
  }
});

test("a lead exports the audit trail from the audit page; it verifies offline with the published key, and the export is in the trail", async ({
  page,
  signInAs,
  request,
}) => {
  await signInAs("LEAD");
  await page.goto("/audit");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: /^Export the whole trail/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^countersign-audit-\d{4}-\d{2}-\d{2}\.jsonl$/);
  const text = readFileSync(await download.path(), "utf8");
  // The public key, obtained separately: from the signed checkpoints endpoint.
  const { response } = signedGet(request, `${PATH}?limit=1`);
  const { publicKey } = (await (await response).json()) as { publicKey: string };
  const report = verifyAuditExport(text, createPublicKey(publicKey));
  expect(report.problems).toEqual([]);
  expect(report.events).toBeGreaterThan(10);
  // One changed character in an event is named.
  // (An event exported whole: a redacted one's edit is named by the seal over redactions instead.)
  const lines = text.trimEnd().split("\n");
  const whole = lines.findIndex((line) => line.includes('"action":') && !line.includes('"redacted":'));
  lines[whole] = lines[whole]!.replace(/"action":"([a-z_.]+)"/, '"action":"$1x"');
  expect(verifyAuditExport(`${lines.join("\n")}\n`, createPublicKey(publicKey)).problems[0]).toMatchObject({
    kind: "event_altered",
    line: whole + 1,
  });

  await page.goto("/audit?action=audit.exported");
  await expect(page.getByRole("main").getByText("audit.exported", { exact: true }).first()).toBeVisible();
});

test("sign-in addresses and session ids stay out of a lead's export; only an admin gets the security export, and both verify", async ({
  page,
  signInAs,
  browser,
  request,
}) => {
  const { response } = signedGet(request, `${PATH}?limit=1`);
  const publicKey = createPublicKey(((await (await response).json()) as { publicKey: string }).publicKey);
  const signedIn = (text: string) =>
    text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { action?: string; inputs?: Record<string, unknown> })
      .filter((e) => e.action === "auth.signed_in");

  await signInAs("LEAD");
  const lead = await page.request.get("/api/audit/export");
  expect(lead.status()).toBe(200);
  const leadText = await lead.text();
  expect(verifyAuditExport(leadText, publicKey).problems).toEqual([]);
  const leadSignIns = signedIn(leadText);
  expect(leadSignIns.length).toBeGreaterThan(0);
  for (const e of leadSignIns) expect(JSON.stringify(e.inputs)).not.toMatch(/\d+\.\d+\.\d+\.\d+|::1/);
  const refused = await page.request.get("/api/audit/export?security=1");
  expect(refused.status()).toBe(403);

  const admin = await signedInPage(browser, "ADMIN");
  const security = await admin.request.get("/api/audit/export?security=1");
  expect(security.status()).toBe(200);
  const securityText = await security.text();
  expect(verifyAuditExport(securityText, publicKey).problems).toEqual([]);
  expect(signedIn(securityText).some((e) => /\d+\.\d+\.\d+\.\d+|::1/.test(JSON.stringify(e.inputs)))).toBe(true);
  await admin.context().close();
});
