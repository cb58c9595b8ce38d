// How a lead gets the audit public key: the signed checkpoints endpoint is the helpdesk's (a lead's
// session gets 401 there), so the audit page shows the key itself, the same one the endpoint publishes,
// and an export the lead downloads from that page verifies with it.
import { createHmac, createPublicKey } from "node:crypto";
import { readFileSync } from "node:fs";
import type { APIRequestContext } from "@playwright/test";
import { verifyAuditExport } from "../lib/audit/verify-audit-export";
import { E2E_INTAKE_SECRET, expect, test } from "./fixtures";

const PATH = "/api/audit/checkpoints?limit=1";

/** The key the signed endpoint publishes, as the helpdesk reads it; null until the instance has one. */
async function publishedKey(request: APIRequestContext): Promise<{ publicKey: string | null; keyId: string | null }> {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = `sha256=${createHmac("sha256", E2E_INTAKE_SECRET).update(`${timestamp}\nGET\n${PATH}`).digest("hex")}`;
  const response = await request.get(PATH, {
    headers: { "x-countersign-timestamp": String(timestamp), "x-countersign-signature": signature },
  });
  expect(response.status()).toBe(200);
  return response.json() as Promise<{ publicKey: string | null; keyId: string | null }>;
}

test("a lead reads the audit public key on the audit page, the one the signed endpoint publishes, and verifies an export with it", async ({
  page,
  signInAs,
  request,
}) => {
  // The worker creates the key with its first checkpoint, within a minute of the server's start.
  test.setTimeout(180_000);
  await expect.poll(async () => (await publishedKey(request)).publicKey, { timeout: 150_000, intervals: [2_000] }).not.toBeNull();
  const { publicKey, keyId } = await publishedKey(request);

  await signInAs("LEAD");
  expect((await page.request.get("/api/audit/checkpoints")).status(), "the endpoint is not the lead's").toBe(401);
  await page.goto("/audit");
  await page.getByText("The audit public key", { exact: false }).click();
  const shown = page.getByRole("textbox", { name: "Audit public key (PEM)" });
  await expect(shown).toBeVisible();
  expect(await shown.inputValue()).toBe(publicKey);
  await expect(page.getByText(`Key id ${keyId}`)).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: /^Export the whole trail/ }).click(),
  ]);
  const report = verifyAuditExport(readFileSync(await download.path(), "utf8"), createPublicKey(await shown.inputValue()));
  expect(report.problems).toEqual([]);
  expect(report.keyId).toBe(keyId);
});
