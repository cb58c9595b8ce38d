// Evaluations from the app (the leads' loop): a lead starts an evaluation from /evals, the job grades
// it in a process of its own while the server keeps serving, and its run is then compared with the
// seeded run of e2e/fixtures/episodes-wrong-expectation.jsonl episode by episode. The dataset offered
// here (EVAL_DATASET_DIR=e2e/fixtures/evals, set by scripts/e2e-server.ts) plays grounded-refund-draft
// with a planner that emits issue_refund: blocked at once, as it expects. So that episode, failed in
// the seeded run (a deliberately wrong expectation, see e2e/fixtures/README.md), is fixed in the new
// one, with a different path from step 1; the other two are unchanged. Both runs are held (neither
// dataset is the pinned one), and each side says so.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const DATASET = "e2e/fixtures/evals/episodes-compare.jsonl";

/** With SCREENSHOTS=1: the whole page at a phone's width and a desktop's. */
async function screenshots(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return;
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a lead starts an evaluation from /evals while the server keeps serving, then compares it with an earlier run", async ({
  page,
  signInAs,
}) => {
  test.setTimeout(300_000);
  await signInAs("LEAD");
  await page.goto("/evals");
  const form = page.getByRole("form", { name: "Start an evaluation" });
  await form.getByLabel("Dataset").selectOption(DATASET);
  await form.getByLabel("Planner").selectOption("as-written");
  await form.getByLabel("Trials").fill("1");
  await form.getByRole("button", { name: "Start evaluation" }).click();
  await expect(page.getByTestId("start-evaluation-message")).toHaveText(/^Started/);

  const request = page.getByTestId("eval-request").filter({ hasText: DATASET }).first();
  await expect(request).toBeVisible();
  // Not graded yet: it runs in a process of its own, which takes seconds to start.
  await expect(request).toHaveAttribute("data-status", /^(queued|running)$/);
  // While it is graded, the server answers other pages and routes.
  const other = await page.context().newPage();
  await other.goto("/");
  await expect(other.getByRole("heading", { level: 1 })).toBeVisible();
  expect((await other.request.get("/api/health")).status()).toBe(200);
  await other.close();

  await expect(request).toHaveAttribute("data-status", "done", { timeout: 240_000 });
  await screenshots(page, "evals-started");
  const newRun = (await request.getByRole("link", { name: "Its run" }).getAttribute("href"))!.split("/").pop()!;

  const seeded = page
    .getByRole("table", { name: "Eval runs, newest first" })
    .getByRole("row")
    .filter({ hasText: "e2e-wrong-expectation-v1" });
  const seededRun = (await seeded.getByRole("link").first().getAttribute("href"))!.split("/").pop()!;

  await page.getByRole("link", { name: "Compare two runs" }).click();
  await expect(page.getByRole("heading", { name: "Compare two eval runs" })).toBeVisible();
  const pick = page.getByRole("form", { name: "Choose two runs" });
  await pick.getByLabel(/^Run A/).selectOption(seededRun);
  await pick.getByLabel(/^Run B/).selectOption(newRun);
  await pick.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(new RegExp(`a=${seededRun}&b=${newRun}`));

  await expect(page.getByTestId("comparison-counts")).toHaveText("1 fixed, 0 broken, 2 unchanged.");
  const changed = page.getByTestId("changed-episode");
  await expect(changed).toHaveCount(1);
  await expect(changed).toHaveAttribute("data-change", "fixed");
  await expect(changed.getByRole("heading")).toHaveText("grounded-refund-draft");
  const diff = changed.getByRole("table", { name: /grounded-refund-draft: run A's and run B's action paths/ });
  const firstDifference = diff.locator("tr[data-first-difference]");
  await expect(firstDifference).toHaveCount(1);
  await expect(firstDifference).toContainText("get_policy_evidence");
  await expect(firstDifference).toContainText("issue_refund");
  for (const side of ["a", "b"]) await expect(page.getByTestId(`decision-${side}`)).toContainText("Hold");
  await screenshots(page, "evals-compare");
});

// A reviewer's judgement becomes evaluation data: the reviewer rejects the agent's reply, judges the
// run wrong with a corrected reply and saves it as an episode; a lead promotes it on /annotations, and
// the next evaluation started from /evals on the team dataset grades it.
test("a reviewer's rejection with a corrected reply is saved as an episode, promoted by a lead and graded by the next evaluation", async ({
  page,
  signInAs,
}) => {
  test.setTimeout(300_000);
  await signInAs("REVIEWER");
  await page.goto("/tickets/new");
  await page.getByLabel("Customer email").fill("priya.nair@example.net");
  await page.getByLabel("Order number").fill("ORD-1004");
  await page.getByLabel("Subject").fill("Annotations: when does my refund arrive?");
  await page.getByLabel("Message").fill("How long until an approved refund reaches my card?");
  await page.getByRole("button", { name: "Create ticket" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  const ticketUrl = page.url();
  await page.getByRole("button", { name: "Run agent" }).click();
  const decision = page.getByRole("form", { name: "Decision" });
  await expect(decision.getByRole("button", { name: "Reject" })).toBeEnabled({ timeout: 20_000 });
  await decision.getByLabel(/^Note/).fill("It should say how many days.");
  await decision.getByRole("button", { name: "Reject" }).click();
  await expect(page.getByText(/^Rejected by Riley Reviewer/)).toBeVisible();

  await page.goto("/annotations");
  await expect(page.getByRole("row").filter({ hasText: "Annotations: when does my refund arrive?" })).toContainText("Rejected by a person");
  await screenshots(page, "annotations-queue");

  await page.goto(ticketUrl);
  const run = page.getByTestId("run-annotation").first();
  await run.getByText("Judge this run").click();
  await run.getByLabel("Why it was wrong").selectOption("reply_wrong");
  await run.getByLabel(/^Corrected reply/).fill("Refunds reach your card within 5 to 10 business days.");
  await run.getByRole("button", { name: "Save judgement" }).click();
  await expect(run.getByText(/^Judged wrong/)).toBeVisible();
  await run.getByRole("button", { name: "Save as episode" }).click();
  const saved = run.getByText(/^Saved as the episode/);
  await expect(saved).toBeVisible();
  const episodeId = (await saved.locator("code").textContent())!;

  await page.context().clearCookies();
  await signInAs("LEAD");
  await page.goto("/annotations");
  const candidate = page.getByRole("row").filter({ hasText: episodeId });
  await expect(candidate).toContainText("Refunds reach your card within 5 to 10 business days.");
  await screenshots(page, "annotations-candidate");
  await candidate.getByRole("button", { name: "Promote" }).click();
  await expect(candidate.getByTestId("candidate-state")).toHaveText("In the team dataset");

  await page.goto("/evals");
  const form = page.getByRole("form", { name: "Start an evaluation" });
  await form.getByLabel("Dataset").selectOption("team");
  await form.getByLabel("Planner").selectOption("as-written");
  await form.getByLabel("Trials").fill("1");
  await form.getByRole("button", { name: "Start evaluation" }).click();
  await expect(page.getByTestId("start-evaluation-message")).toHaveText(/^Started/);
  const request = page.getByTestId("eval-request").filter({ hasText: "team" }).first();
  await expect(request).toHaveAttribute("data-status", "done", { timeout: 240_000 });
  await request.getByRole("link", { name: "Its run" }).click();
  await expect(page.getByText(episodeId).first()).toBeVisible();
});
