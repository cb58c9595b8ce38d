// The ledger shows each refund's state at the payment provider: the suite's server executes refunds
// at the fake Stripe (scripts/e2e-server.ts), whose control API on the next port holds an answer back
// (until the test lets it go) or fails a refund after it succeeded. One refund is seen requested, then succeeded; another failed,
// with Stripe's reason. With SCREENSHOTS=1 the ledger is saved at 390 and 1440 px.
import type { Page } from "@playwright/test";
import { e2ePort } from "../testing/e2e-data-dir";
import { expect, signedInPage, test } from "./fixtures";

const APP_PORT = e2ePort();
const FAKE_STRIPE = `http://127.0.0.1:${APP_PORT + 1}`;
const WEBHOOK_URL = `http://127.0.0.1:${APP_PORT}/api/payments/stripe`;

async function control(path: string, body: Record<string, unknown>) {
  const answer = await fetch(`${FAKE_STRIPE}/_fake/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(answer.ok).toBe(true);
}
const injectFault = (fault: Record<string, unknown>) => control("faults", fault);

/** Runs the agent on a scenario's ticket and approves its refund; answers the order id. */
async function approveRefund(page: Page, scenario: string): Promise<string> {
  await page.goto(`/tickets/e2e-${scenario}`);
  await page.getByRole("button", { name: "Run agent" }).click();
  await expect(page.getByRole("button", { name: "Run agent" })).toBeEnabled({ timeout: 20_000 });
  const proposal = page.getByText(/^Refund 79\.00 USD on ORD-E2E-\d+$/);
  const orderId = /ORD-E2E-\d+/.exec(await proposal.innerText())![0];
  await page.getByRole("form", { name: "Decision" }).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(/^Ledger: /)).toContainText(`79.00 USD refunded on ${orderId}`, { timeout: 20_000 });
  return orderId;
}

async function saveScreenshots(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return;
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("a refund's provider state moves from requested to succeeded on the ledger", async ({ page, signInAs, browser }) => {
  await signInAs("REVIEWER");
  const lead = await signedInPage(browser, "LEAD");
  // Stripe makes the refund but holds its answer (up to just under the client's 20 s timeout, until the
  // test lets it go), and its events wait too: the row stays requested.
  test.setTimeout(90_000);
  await injectFault({ kind: "slow", ms: 19_000, match: "/v1/refunds" });
  await control("webhook_url", { url: null });
  let orderId: string;
  try {
    orderId = await approveRefund(page, "stripe-succeeds");
  } finally {
    await control("webhook_url", { url: WEBHOOK_URL });
  }

  await lead.goto(`/ledger?orderId=${orderId}`);
  const row = lead.getByRole("table", { name: "Ledger entries, newest first" }).getByRole("row").filter({ hasText: orderId });
  await expect(row).toContainText("Requested, waiting for the provider");
  await expect(row).toContainText("Stripe");
  await saveScreenshots(lead, "ledger-requested");
  await control("release", {});

  await expect(async () => {
    await lead.reload();
    await expect(row).toContainText("Succeeded", { timeout: 1_000 });
  }).toPass({ timeout: 40_000 });
  await expect(row.getByText(/^re_/)).toBeVisible();
  await expect(row).not.toContainText("Reason:");
});

test("a refund that fails at the provider after it succeeded shows failed on the ledger, with the provider's reason", async ({
  page,
  signInAs,
  browser,
}) => {
  await signInAs("REVIEWER");
  await injectFault({ kind: "fail_later", afterMs: 1_500, reason: "expired_or_canceled_card" });
  const orderId = await approveRefund(page, "stripe-fails");

  const lead = await signedInPage(browser, "LEAD");
  await lead.goto(`/ledger?orderId=${orderId}`);
  const row = lead.getByRole("table", { name: "Ledger entries, newest first" }).getByRole("row").filter({ hasText: orderId });
  // The event Stripe sends when the refund fails moves the row.
  await expect(async () => {
    await lead.reload();
    await expect(row).toContainText("Failed", { timeout: 1_000 });
  }).toPass({ timeout: 25_000 });
  await expect(row).toContainText("Reason: expired_or_canceled_card");
  await saveScreenshots(lead, "ledger-failed");

  // The ticket is back with a person, who sees why.
  await page.goto("/tickets/e2e-stripe-fails");
  await expect(page.getByText("The payment provider did not complete the refund").first()).toBeVisible();
});
