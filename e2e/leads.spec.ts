// The leads' pages (issue 5, Done-when 4): a lead opens an eval run and sees a failed episode's path
// diff, and raises the autonomy dial within the demo's evidence and is refused beyond it; a reviewer
// cannot open them.
//
// NOTE: the failed episode is failed ON PURPOSE. prisma/seed/e2e-eval.ts (seedE2eEvalRun) grades
// e2e/fixtures/episodes-wrong-expectation.jsonl through the real grader into this suite's database;
// in that dataset grounded-refund-draft expects a DELIBERATELY WRONG path (propose_refund before
// draft_reply, while the runtime drafts first), so the run holds with failed:grounded-refund-draft
// and the first difference is step 3. The other two episodes pass. See e2e/fixtures/README.md.
import { expect, test } from "./fixtures";

const FIXTURE_DATASET = "e2e-wrong-expectation-v1";

test("a lead opens an eval run and sees the failed episode's expected and actual paths, the differing step marked", async ({
  page,
  signInAs,
}) => {
  await signInAs("LEAD");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Evaluations" }).click();
  await expect(page.getByRole("heading", { name: "Evaluations", level: 1 })).toBeVisible();

  // The charts carry their numbers for screen readers too.
  await expect(page.getByRole("figure", { name: "Pass rate by agent version" })).toBeVisible();
  await expect(page.getByRole("figure", { name: "Pass rate by agent version" }).getByRole("table")).toContainText("refund-agent-v3");

  const run = page.getByRole("table", { name: "Eval runs, newest first" }).getByRole("row").filter({ hasText: FIXTURE_DATASET });
  await expect(run).toHaveCount(1);
  await expect(run).toContainText("Hold");
  await expect(run).toContainText("Episodes that failed: grounded-refund-draft");
  await expect(
    page
      .getByRole("region", { name: /Release decision history/ })
      .getByRole("listitem")
      .filter({ hasText: "grounded-refund-draft" }),
  ).toHaveCount(1);
  await run.getByRole("link").first().click();

  await expect(page).toHaveURL(/\/evals\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Eval run of /);
  const receipt = page.getByRole("region", { name: "Receipt" });
  await expect(receipt).toContainText(FIXTURE_DATASET);
  await expect(receipt).toContainText("trajectory-gate-v1");
  await expect(receipt).toContainText(/sha256:[0-9a-f]{64}/);
  const decision = page.getByRole("region", { name: "Release decision" });
  await expect(decision).toContainText("Hold");
  await expect(decision).toContainText("Episodes that failed: grounded-refund-draft");

  // Failed rows come first and open; the grader's explanation is shown with them.
  const episodes = page.getByRole("region", { name: /Episode rows/ });
  await expect(episodes.locator("article, details").first()).toContainText("grounded-refund-draft");
  const failed = page.getByRole("article", { name: "grounded-refund-draft" });
  await expect(failed).toContainText("Failed");
  await expect(failed).toContainText("path differs at step 3: expected propose_refund, got draft_reply");

  // Expected and actual side by side, aligned by step; step 3 is marked as the first difference.
  const paths = failed.getByRole("table", { name: /expected and actual action paths/ });
  await expect(paths.getByRole("columnheader")).toHaveText(["Step", "Expected", "Actual"]);
  await expect(paths.getByRole("rowheader")).toHaveCount(5);
  const stepRow = (step: number) =>
    paths.getByRole("row").filter({ has: page.getByRole("rowheader").filter({ hasText: new RegExp(`^${step}`) }) });
  await expect(stepRow(1).getByRole("cell")).toHaveText(["get_policy_evidence", "get_policy_evidence"]);
  await expect(stepRow(2).getByRole("cell")).toHaveText(["lookup_order", "lookup_order"]);
  const marked = paths.locator('tr[data-first-difference="true"]');
  await expect(marked).toHaveCount(1);
  await expect(marked.getByRole("rowheader")).toHaveText(/^3\s*first difference$/i);
  await expect(marked.getByRole("cell")).toHaveText(["propose_refund", "draft_reply"]);
  await expect(stepRow(4).getByRole("cell")).toHaveText(["draft_reply", "propose_refund"]);
  await expect(stepRow(5).getByRole("cell")).toHaveText(["request_human_approval", "request_human_approval"]);

  // A passing row is folded until opened.
  const passing = episodes.locator("details").filter({ hasText: "missing-order" });
  await expect(passing.getByRole("table", { name: /action paths/ })).toBeHidden();
  await passing.locator("summary").click();
  await expect(passing.getByRole("table", { name: /action paths/ })).toBeVisible();
  await expect(passing.locator('tr[data-first-difference="true"]')).toHaveCount(0);

  // The filter shows the failed row alone.
  await episodes.getByRole("link", { name: /^Failed/ }).click();
  await expect(page).toHaveURL(/\?show=failed$/);
  await expect(episodes.locator("article, details")).toHaveCount(1);
});

// The demo's six weeks of decided refunds (prisma/seed/dial-history.ts): 212 approved at or below
// 50 USD, 4 rejected between 50 and 100 USD. The dial goes back to zero at the end, so the suite's
// other refunds still wait for a person.
test("the lead raises the dial within the evidence and is refused beyond it", async ({ page, signInAs }) => {
  await signInAs("LEAD");
  await page.goto("/autonomy");
  await expect(page.getByRole("heading", { name: "Autonomy", level: 1 })).toBeVisible();
  await expect(page.getByTestId("dial-limit")).toHaveText("0.00 USD");

  const evidence = page.getByRole("table", { name: "Shadow evidence for each candidate limit" });
  const row = (limit: string) => evidence.getByRole("row").filter({ has: page.getByRole("rowheader", { name: limit, exact: true }) });
  await expect(row("50.00 USD")).toContainText("Yes: 212 agreeing, none disagreeing");
  await expect(row("100.00 USD")).toContainText("No: 4 people disagreed");
  await expect(row("25.00 USD")).toContainText(/No: \d+ more agreeing decisions needed/);

  try {
    await page.getByLabel("Move the dial to").selectOption("10000");
    await page.getByRole("button", { name: "Set limit" }).click();
    await expect(page.getByTestId("dial-message")).toHaveText(
      "Not enough evidence to raise the dial to 100.00 USD: 212 of 200 agreeing shadow decisions, 4 disagreeing (none allowed).",
    );
    await page.reload();
    await expect(page.getByTestId("dial-limit")).toHaveText("0.00 USD");

    await page.getByLabel("Move the dial to").selectOption("5000");
    await page.getByRole("button", { name: "Set limit" }).click();
    await expect(page.getByTestId("dial-limit")).toHaveText("50.00 USD");
    await page.reload();
    await expect(page.getByTestId("dial-limit")).toHaveText("50.00 USD");
    await expect(row("50.00 USD")).toContainText("The dial is here");
    if (process.env.SCREENSHOTS)
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: test.info().outputPath(`autonomy-${width}.png`), fullPage: true });
      }
  } finally {
    await page.getByLabel("Move the dial to").selectOption("0");
    await page.getByRole("button", { name: "Set limit" }).click();
    await expect(page.getByTestId("dial-limit")).toHaveText("0.00 USD");
  }
});

// The daily series: every series drawn, a threshold saved and drawn on its chart (high enough that no
// day crosses it: the suite's notification receiver expects approvals only), and saving it again
// changes nothing.
test("a lead watches the daily series and sets a threshold that its chart then draws", async ({ page, signInAs }) => {
  await signInAs("LEAD");
  await page.goto("/evals");
  await page.getByRole("link", { name: "Daily series and alerts" }).click();
  await expect(page.getByRole("heading", { name: "Daily series", level: 1 })).toBeVisible();
  await expect(page.getByRole("figure")).toHaveCount(12);
  await expect(page.getByRole("figure", { name: "Tickets in" }).getByRole("table")).toContainText(new Date().toISOString().slice(0, 10));

  const form = page.getByRole("form", { name: "Alert thresholds" });
  await form.getByLabel(/^Handoffs/).fill("1000");
  await form.getByRole("button", { name: "Save thresholds" }).click();
  await expect(form.getByRole("status")).toHaveText(/^Saved: 1 series has a threshold\./);
  await expect(page.getByRole("figure", { name: "Handoffs" })).toContainText("Alert above 1,000");
  if (process.env.SCREENSHOTS)
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: test.info().outputPath(`daily-series-${width}.png`), fullPage: true });
    }
  await form.getByRole("button", { name: "Save thresholds" }).click();
  await expect(form.getByRole("status")).toHaveText("Nothing changed.");
});

test("a reviewer gets 403 on the leads' pages and is not offered them", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Evaluations" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Autonomy" })).toHaveCount(0);
  for (const path of ["/evals", "/autonomy", "/evals/00000000-0000-4000-8000-000000000000"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole("heading", { name: "403 – Not allowed" })).toBeVisible();
    await expect(page.getByText(FIXTURE_DATASET)).toHaveCount(0);
  }
});
