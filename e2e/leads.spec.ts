// The leads' pages: an eval run with a failed episode's path diff, the autonomy dial refusing a raise
// without evidence, and the pages closed to reviewers. The eval run is real: prisma/seed/e2e-eval.ts
// grades e2e/fixtures/episodes-wrong-expectation.jsonl, whose grounded-refund-draft episode expects a
// deliberately wrong path (see e2e/fixtures/README.md).
import { expect, test } from "./fixtures";

test("a lead opens an eval run and sees the failed episode's path diff", async ({ page, signInAs }) => {
  await signInAs("LEAD");
  await page.goto("/evals");
  await expect(page.getByRole("heading", { name: "Evaluations", level: 1 })).toBeVisible();
  await page.getByRole("region", { name: /runs/i }).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/evals\/[0-9a-f-]{36}/);
  await expect(page.getByRole("region", { name: "Release decision" })).toContainText("Episodes that failed: grounded-refund-draft");

  const firstDifference = page.locator('tr[data-first-difference="true"]').first();
  await expect(firstDifference).toBeVisible();
  await expect(firstDifference).toContainText("3");
  await expect(firstDifference).toContainText("first difference");
  await expect(firstDifference.getByRole("cell").nth(0)).toHaveText("propose_refund");
  await expect(firstDifference.getByRole("cell").nth(1)).toHaveText("draft_reply");
});

test("the autonomy dial refuses a raise without evidence", async ({ page, signInAs }) => {
  await signInAs("LEAD");
  await page.goto("/autonomy");
  await expect(page.getByRole("heading", { name: "Autonomy", level: 1 })).toBeVisible();
  const dial = page.getByRole("form", { name: "Set the autonomy dial" });
  await dial.getByLabel("Auto-approve limit").selectOption("10000");
  await dial.getByRole("button", { name: "Set limit" }).click();
  await expect(page.getByTestId("dial-message")).toContainText("Not enough evidence to raise the dial to 100.00 USD");
  await page.reload();
  await expect(dial.getByLabel("Auto-approve limit")).toHaveValue("0");
});

for (const path of ["/evals", "/autonomy"]) {
  test(`a reviewer cannot open ${path}`, async ({ page, signInAs }) => {
    await signInAs("REVIEWER");
    const response = await page.goto(path);
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: /403/ })).toBeVisible();
  });
}
