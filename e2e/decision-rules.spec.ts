// What the ticket page offers is what the decision rules allow (lib/approvals/decision-options.ts):
// a refund its order can no longer pay offers no Approve and says why; a decided ticket shows every
// decision – a rejection with its note, then the reply a person wrote by hand, as it was sent.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

async function runAgentOn(page: Page, externalId: string) {
  await page.goto(`/tickets/${externalId}`);
  await page.getByRole("button", { name: "Run agent" }).click();
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toBeVisible({ timeout: 20_000 });
}

const decision = (page: Page) => page.getByRole("form", { name: "Decision" });

test("a refund its order can no longer pay offers no Approve, says why, and may still be rejected", async ({ page, signInAs }) => {
  test.setTimeout(90_000);
  await signInAs("REVIEWER");
  // Two tickets about one 79 USD order, each with the agent's 79 USD proposal waiting.
  await runAgentOn(page, "e2e-unpayable");
  await runAgentOn(page, "e2e-unpayable-second");
  await page.goto("/tickets/e2e-unpayable");
  await decision(page).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("The refund was written to the ledger.")).toBeVisible({ timeout: 20_000 });

  await page.goto("/tickets/e2e-unpayable-second");
  await expect(page.getByText("0.00 USD of 79.00 USD remains refundable")).toBeVisible();
  await expect(decision(page).getByRole("button", { name: "Approve" })).toBeDisabled();
  await expect(page.getByTestId("why-not")).toHaveText(
    /^Nothing remains refundable on ORD-E2E-\d+: earlier refunds used it all\. This refund cannot be paid; reject it\.$/,
  );
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toBeVisible();
  // The approve key says the same instead of doing nothing.
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  await page.keyboard.press("a");
  await expect(page.getByTestId("shortcut-notice")).toContainText("Nothing remains refundable");

  await decision(page).getByLabel(/^Note/).fill("Already refunded on the first ticket.");
  await decision(page).getByRole("button", { name: "Reject" }).click();
  await expect(page.getByText(/^Rejected by Riley Reviewer/)).toBeVisible();
});

test("a rejected ticket answered by hand shows the rejection, its note and the reply that was sent", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  await runAgentOn(page, "e2e-rejected-by-hand");
  await decision(page).getByLabel(/^Note/).fill("The photo shows no damage.");
  await decision(page).getByRole("button", { name: "Reject" }).click();
  await expect(page.getByText(/^Rejected by Riley Reviewer/)).toBeVisible();

  // The rejected draft promised a refund that no one will make: a hand reply does not start from it.
  await expect(page.getByLabel("Your reply to the customer")).toHaveValue("");
  await page.getByLabel("Your reply to the customer").fill("Could you send us a photo of the damage, please?");
  await page.getByRole("button", { name: "Send reply and resolve" }).click();
  await expect(page.getByText(/Resolved/).first()).toBeVisible();
  await page.reload();

  const decided = page.getByTestId("decided-request");
  await expect(decided).toHaveCount(2);
  // Newest first: the reply written by hand – not "Approved" – with what the customer was sent.
  await expect(decided.nth(0)).toContainText(/^Answered by hand by Riley Reviewer \(Reviewer\)/);
  await expect(decided.nth(0).getByTestId("reply-sent")).toHaveText("Could you send us a photo of the damage, please?");
  await expect(decided.nth(1)).toContainText(/^Rejected by Riley Reviewer \(Reviewer\) on .*: “The photo shows no damage\.”/);
  await expect(page.getByText(/^Approved by/)).toHaveCount(0);
});
