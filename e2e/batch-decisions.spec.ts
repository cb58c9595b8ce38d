// Batch decisions: five waiting approvals selected in the queue, previewed, approved with one note;
// the one made before a policy change cannot be ticked (the decision rules would refuse it as stale)
// and says why, the four others are approved, each against its own digest, every reply shown first.
import type { Page } from "@playwright/test";
import { changePolicy, expect, test } from "./fixtures";

test.describe.configure({ timeout: 150_000 });

async function runAgentOn(page: Page, scenario: string) {
  await page.goto(`/tickets/e2e-${scenario}`);
  await page.getByRole("button", { name: "Run agent" }).click();
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toBeVisible({ timeout: 20_000 });
}

test("a batch of five approvals with one stale item: the stale one cannot be ticked, the four others approved", async ({
  page,
  signInAs,
  browser,
}) => {
  await signInAs("REVIEWER");
  await runAgentOn(page, "batch-1");
  // A policy change: the request on batch-1 was made under the old policy.
  await changePolicy(browser);
  for (const n of [2, 3, 4, 5]) await runAgentOn(page, `batch-${n}`);

  await page.goto("/?q=(batch-");
  const table = page.getByRole("table", { name: /batch-/ });
  await expect(table.getByRole("row").filter({ hasText: "(batch-" })).toHaveCount(5);
  await page.getByLabel("Select this page").check();
  await page.getByRole("region", { name: "Bulk actions" }).getByRole("button", { name: "Decide…" }).click();

  await expect(page.getByRole("heading", { name: "Decide a batch", level: 1 })).toBeVisible();
  const preview = page.getByRole("table", { name: "Requests to decide" });
  await expect(preview.getByRole("row").filter({ hasText: "(batch-" })).toHaveCount(5);
  const staleRow = preview.getByRole("row").filter({ hasText: "(batch-1)" });
  await expect(staleRow.getByTestId("cannot-decide")).toHaveAttribute("data-code", "stale");
  await expect(staleRow.getByTestId("cannot-decide")).toHaveText(/^The policy, intake bundle or agent changed/);
  await expect(staleRow.getByRole("checkbox")).toBeDisabled();
  await expect(staleRow.getByRole("checkbox")).not.toBeChecked();
  // What each customer would receive is on the page before anyone approves it: no citation tokens.
  for (const n of [1, 2, 3, 4, 5])
    await expect(
      preview
        .getByRole("row")
        .filter({ hasText: `(batch-${n})` })
        .getByTestId("batch-reply"),
    ).toContainText("79.00 USD");
  await expect(preview.getByTestId("batch-reply").first()).not.toContainText("[return-policy-us@2]");
  await expect(preview.getByRole("row").filter({ hasText: "(batch-2)" })).toContainText("Refund 79.00 USD");
  await expect(preview.getByRole("row").filter({ hasText: "(batch-2)" })).toContainText("return-policy-us@2");

  await page.getByLabel("Note for every selected request").fill("Photos of the damage are on file.");
  await page.getByRole("button", { name: "Approve 4 selected" }).click();
  await expect(page.getByTestId("batch-result")).toHaveText(/^4 approved\./);
  await expect(staleRow).toContainText("Not selected");
  for (const n of [2, 3, 4, 5])
    await expect(
      preview
        .getByRole("row")
        .filter({ hasText: `(batch-${n})` })
        .getByTestId("outcome"),
    ).toHaveAttribute("data-outcome", "approved");

  // Each approval is its own decision, with the note, and batch-1 still waits.
  await page.goto("/tickets/e2e-batch-3");
  await expect(page.getByText(/^Approved by Riley Reviewer/)).toContainText("Photos of the damage are on file.");
  await page.goto("/tickets/e2e-batch-1");
  await expect(page.getByTestId("blocked")).toHaveText(/^The policy, intake bundle or agent changed/);
});
