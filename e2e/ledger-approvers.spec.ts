// The ledger names who approved a refund beside who executed it: the refund worker writes every row,
// so the person who approved must appear on the page, in its Actor filter and in the CSV export.
// With SCREENSHOTS=1 the ledger is also saved at each width in the test's output folder.
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { csvRecords } from "../testing/csv";
import { ACCOUNTS, expect, signedInPage, test } from "./fixtures";

const WIDTHS = [320, 390, 1440];

async function saveScreenshots(page: Page) {
  if (!process.env.SCREENSHOTS) return;
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`ledger-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("a refund a reviewer approved names the reviewer on the ledger, in its Actor filter and in its CSV", async ({
  page,
  signInAs,
  browser,
}) => {
  const approver = ACCOUNTS.REVIEWER;
  await signInAs("REVIEWER");
  await page.goto("/tickets/e2e-ledger");
  await page.getByRole("button", { name: "Run agent" }).click();
  await expect(page.getByRole("button", { name: "Run agent" })).toBeEnabled({ timeout: 20_000 });
  const proposal = page.getByText(/^Refund 79\.00 USD on ORD-E2E-\d+$/);
  const orderId = /ORD-E2E-\d+/.exec(await proposal.innerText())![0];
  await page.getByRole("form", { name: "Decision" }).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(`Approved by ${approver.name}`)).toBeVisible();
  // The in-process worker has executed it: its ledger row exists.
  await expect(page.getByText(/^Ledger: /)).toContainText(`79.00 USD refunded on ${orderId}`);

  // A lead may read the ledger, which a reviewer may not (AREAS.ledger).
  const lead = await signedInPage(browser, "LEAD");
  await lead.goto("/ledger");
  const entries = lead.getByRole("table", { name: "Ledger entries, newest first" });
  const row = entries.getByRole("row").filter({ hasText: orderId });
  await expect(row.getByRole("cell", { name: approver.name, exact: true })).toBeVisible();
  // The executor is still the worker, beside the approver.
  await expect(row).toContainText("refund-worker");
  await saveScreenshots(lead);

  // The Actor filter finds the row by its approver; every row it keeps names that person.
  await lead.getByLabel("Actor").selectOption({ label: `${approver.name} (${approver.email})` });
  await lead.getByRole("button", { name: "Apply filters" }).click();
  await expect(lead).toHaveURL(/[?&]actor=[0-9a-f-]{36}/);
  await expect(row).toHaveCount(1);
  for (const each of await entries
    .getByRole("row")
    .filter({ has: lead.getByRole("cell") })
    .all())
    await expect(each).toContainText(approver.name);

  // The export, with the same filter, names the approver on the refund's line.
  const [download] = await Promise.all([
    lead.waitForEvent("download"),
    lead.getByRole("link", { name: "Download CSV (filtered)" }).click(),
  ]);
  const lines = csvRecords(await readFile((await download.path())!, "utf8"));
  const line = lines.find((l) => l.order_id === orderId);
  expect(line).toMatchObject({ approved_by: approver.name, actor_type: "system", actor_id: "refund-worker" });
  expect(lines.every((l) => (l.approved_by ?? "").split("; ").includes(approver.name) || l.actor_name === approver.name)).toBe(true);
  await lead.context().close();
});
