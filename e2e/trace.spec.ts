// A trace people can read: a run's steps as a timeline (duration, tokens, the outcome and the
// policy's decision in words, the arguments and result folded with the leading fields first), and two
// runs of one ticket compared step by step, both at a phone's width without sideways scrolling.
// The trace scenario's ticket has two seeded simulated runs (prisma/seed/e2e.ts, seedE2eTraceRuns):
// a scripted planner that reports tokens and asks for another customer's order (rewritten by the
// policy), then the rule planner.
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** How far the page reaches past the viewport, in CSS pixels (0 when it does not scroll sideways). */
async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Opens every folded argument and result: their long values must wrap too. */
async function openAll(page: Page) {
  await page.locator("details:not([open])").evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
}

/** With SCREENSHOTS=1, saves the viewport (a page) or a part of it (a locator) in the test's output folder, for a person to look at. */
async function screenshot(target: Page | Locator, name: string) {
  if (!process.env.SCREENSHOTS) return;
  await target.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

test("at 390 px a run's trace reads as a timeline: step names, durations, tokens and the policy's decision, without sideways scroll", async ({
  page,
  signInAs,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await signInAs("REVIEWER");
  await page.goto("/tickets/e2e-trace");
  await expect(page.getByRole("heading", { name: "Agent runs (2)" })).toBeVisible();
  // Newest first: the rule planner's run, then the scripted one.
  const traces = page.getByRole("list", { name: /^Trace of the run of / });
  await expect(traces).toHaveCount(2);
  const scripted = traces.nth(1);
  await expect(scripted.getByRole("listitem")).toHaveCount(4);
  await expect(scripted.getByRole("listitem").nth(0)).toHaveAccessibleName("Step 1: get_policy_evidence");

  // The policy rewrote the lookup of another customer's order: said in words, with its code.
  const lookup = scripted.getByRole("listitem", { name: "Step 2: lookup_order" });
  await expect(lookup.getByText("Rewritten by the policy")).toBeVisible();
  await expect(lookup.getByTestId("step-policy")).toContainText("Rewritten: not the order on the ticket order_not_on_ticket");
  await expect(lookup.getByTestId("step-tokens")).toHaveText("1,278 (1,240 in, 38 out)");
  await expect(lookup.getByTestId("step-duration")).toHaveText(/^\d+ ms \(\d+% of the steps\)$/);
  await expect(lookup.getByTestId("duration-bar")).toBeAttached();
  // Its result, folded: the order's id, amount and currency first, the rest after.
  const result = lookup.locator("details").filter({ has: page.locator("summary", { hasText: "Result" }) });
  await expect(result.locator("summary")).toContainText("order.id ORD-E2E-22 · order.amountCents 7900 · order.currency USD");
  await result.locator("summary").click();
  await expect(result.locator("dt").first()).toHaveText("order.id");
  await expect(result.locator("dt").nth(3)).toHaveText("found");
  await expect(result.locator("dt", { hasText: "order.item" })).toBeVisible();
  // A step the gate let through says so.
  await expect(scripted.getByRole("listitem", { name: "Step 1: get_policy_evidence" }).getByTestId("step-policy")).toHaveText("Allowed");

  // The rule planner's run: its refund proposal's result leads with the order, the amount and the decision.
  const rule = traces.nth(0);
  const proposal = rule.getByRole("listitem", { name: "Step 4: propose_refund" });
  await expect(proposal.getByText("Done", { exact: true })).toBeVisible();
  await expect(proposal.getByTestId("step-tokens")).toHaveText("0");
  await expect(proposal.locator("summary", { hasText: "Result" })).toContainText("orderId ORD-E2E-22 · amountCents 7900 · currency USD");

  await screenshot(scripted, "ticket-trace-390");
  await openAll(page);
  expect(await sidewaysOverflow(page)).toBe(0);
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(await sidewaysOverflow(page)).toBe(0);
  await page.reload();
  await screenshot(traces.nth(1), "ticket-trace-1440");
});

test("at 390 px two runs of a ticket compare step by step: which steps differ and how, without sideways scroll", async ({
  page,
  signInAs,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await signInAs("LEAD");
  await page.goto("/tickets/e2e-trace");
  await page.getByRole("link", { name: "Compare runs" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}\/compare$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Compare runs of ticket #\d+$/);

  // Both runs on top: the older (scripted) as A, the newest (rule) as B, with status, reason and budgets.
  const runA = page.getByRole("region", { name: "Run A" });
  const runB = page.getByRole("region", { name: "Run B" });
  await expect(runA).toContainText("scripted planner");
  await expect(runB).toContainText("rule planner");
  for (const run of [runA, runB]) {
    await expect(run.locator("code", { hasText: /^needs_human$/ })).toBeVisible();
    await expect(run.locator("code", { hasText: /^draft_ready_for_review$/ })).toBeVisible();
    await expect(run.getByRole("meter", { name: "Tokens used" })).toBeVisible();
  }
  await expect(runA.getByRole("meter", { name: "Steps used" })).toHaveAttribute("aria-valuenow", "4");
  await expect(runB.getByRole("meter", { name: "Steps used" })).toHaveAttribute("aria-valuenow", "5");

  await expect(page.getByTestId("comparison-summary")).toContainText(
    "3 of 5 steps differ, the first at step 2: 2 same, 2 changed, 1 added in B, 0 only in A.",
  );
  const steps = page.getByRole("list", { name: "Both runs' steps, aligned by position" }).locator(":scope > li");
  await expect(steps).toHaveCount(5);
  expect(await steps.evaluateAll((all) => all.map((li) => li.getAttribute("aria-label")))).toEqual([
    "Step 1: same",
    "Step 2: changed",
    "Step 3: same",
    "Step 4: changed",
    "Step 5: added in b",
  ]);
  const second = steps.nth(1);
  await expect(second).toContainText("first difference");
  await expect(second).toContainText("differs in outcome, policy");
  // What differs is marked on both sides (and said, for a screen reader).
  await expect(second.getByTestId("step-policy")).toHaveText([
    'Rewritten: not the order on the ticket order_not_on_ticket → lookup_order {"order_id":"ORD-E2E-22"} (differs)',
    "Allowed (differs)",
  ]);
  await expect(second.locator("[data-differs]")).toHaveText([
    "Rewritten by the policy (differs)",
    /^Rewritten: .* \(differs\)$/,
    "Done (differs)",
    "Allowed (differs)",
  ]);
  await expect(steps.nth(0).locator("[data-differs]")).toHaveCount(0);
  await expect(second.getByTestId("step-tokens")).toHaveText(["1,278 (1,240 in, 38 out)", "0"]);
  const fourth = steps.nth(3);
  await expect(fourth).toContainText("differs in action, arguments, result");
  await expect(fourth.locator("code", { hasText: /^(request_human_approval|propose_refund)$/ })).toHaveText([
    "request_human_approval",
    "propose_refund",
  ]);
  await expect(steps.nth(4)).toContainText("No step 5: run A had ended.");
  await expect(steps.nth(4)).toContainText("request_human_approval");

  await screenshot(page, "compare-390-top");
  await screenshot(steps.nth(1), "compare-390-step-2");
  await openAll(page);
  expect(await sidewaysOverflow(page)).toBe(0);
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(await sidewaysOverflow(page)).toBe(0);
  await page.reload();
  await screenshot(page, "compare-1440-top");
  await screenshot(steps.nth(1), "compare-1440-step-2");
  await screenshot(steps.nth(3), "compare-1440-step-4");

  // Choosing the runs the other way round: the newest as A, the step only it took is now only in A.
  await page.getByLabel("First run (A)").selectOption({ index: 0 });
  await page.getByLabel("Second run (B)").selectOption({ index: 1 });
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page.getByTestId("comparison-summary")).toContainText("0 added in B, 1 only in A.");
});

test("the comparison answers 404 for a malformed or unknown run id and for runs of another ticket", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  await page.goto("/tickets/e2e-trace/compare");
  const ids = await page
    .getByLabel("First run (A)")
    .locator("option")
    .evaluateAll((all) => all.map((o) => (o as HTMLOptionElement).value));
  expect(ids).toHaveLength(2);
  const compare = page.url().split("?")[0]!;
  expect((await page.goto(`${compare}?a=${ids[1]}&b=${ids[0]}`))?.status()).toBe(200);
  expect((await page.goto(`${compare}?a=not-a-run&b=${ids[0]}`))?.status()).toBe(404);
  expect((await page.goto(`${compare}?a=${ids[1]}&b=00000000-0000-4000-8000-000000000000`))?.status()).toBe(404);
  // The same two runs under another ticket's address: not found, never shown there.
  expect((await page.goto(`/tickets/e2e-laptop/compare?a=${ids[1]}&b=${ids[0]}`))?.status()).toBe(404);
  expect((await page.goto("/tickets/no-such-ticket/compare"))?.status()).toBe(404);
});
