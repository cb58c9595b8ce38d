// Bulk work from the queue: select rows (a shift-click range), run the agent on them through the job
// queue and watch each ticket settle; assign a selection to someone; select a whole view.
import { deliverTicket, expect, test } from "./fixtures";

test.describe.configure({ timeout: 120_000 });

/** Delivers `count` tickets sharing a marker a search finds, and answers the marker. */
async function deliverMany(request: Parameters<typeof deliverTicket>[0], count: number, what: string) {
  const marker = `bulk${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const numbers: number[] = [];
  for (let i = 0; i < count; i++) {
    const { number } = await deliverTicket(request, {
      subject: `${what} ${marker} ${i + 1}`,
      body: `Question ${i + 1} about my order, reference ${marker}.`,
      orderId: "ORD-1004",
    });
    numbers.push(number);
  }
  return { marker, numbers };
}

test("a reviewer selects 20 tickets and runs the agent on them, watching progress", async ({ page, signInAs, request }) => {
  const { marker } = await deliverMany(request, 20, "Kettle question");
  await signInAs("REVIEWER");
  await page.goto(`/?q=${marker}`);
  const table = page.getByRole("table", { name: new RegExp(marker) });
  await expect(table.getByRole("row").filter({ hasText: marker })).toHaveCount(20);

  // The first box, then shift and the last: the twenty between are selected.
  const boxes = table.getByRole("checkbox", { name: /^Select ticket #/ });
  await boxes.first().check();
  await boxes.last().click({ modifiers: ["Shift"] });
  const bar = page.getByRole("region", { name: "Bulk actions" });
  await expect(bar.getByTestId("selected-count")).toHaveText("20 selected");

  await bar.getByRole("button", { name: "Run agent" }).click();
  const progress = page.getByTestId("batch-progress");
  await expect(progress.getByRole("heading")).toHaveText("Running the agent on 20 tickets");
  await expect(progress.getByTestId("batch-item")).toHaveCount(20);
  // Progress moves while the queue works; in the end every ticket has its run's outcome.
  await expect(progress.getByTestId("batch-summary")).toHaveText(/^Finished: 20 of 20 settled · 20 done$/, { timeout: 90_000 });
  await expect(progress.getByTestId("batch-item").and(page.locator('[data-status="done"]'))).toHaveCount(20);
  await expect(progress.getByTestId("batch-item").first()).toContainText(/Needs a person|Blocked|Completed|Auto-approved|Draft/);
  // How fast it went, and what its runs waited on the model's rate limit (none: no limit is set).
  const pace = progress.getByTestId("batch-pace");
  await expect(pace).toContainText(/Throughput\s*[\d,.]+ tickets\/min/);
  await expect(pace).toContainText(/Waiting on the model's rate limit\s*0\.0 s/);
  // The selection was cleared when the work started.
  await expect(bar).toHaveCount(0);
});

test("an admin assigns a selection to a reviewer, one result per ticket, each in the audit", async ({ page, signInAs, request }) => {
  const { marker, numbers } = await deliverMany(request, 3, "Blender question");
  await signInAs("ADMIN");
  await page.goto(`/?q=${marker}`);
  const table = page.getByRole("table", { name: new RegExp(marker) });
  await expect(table.getByRole("row").filter({ hasText: marker })).toHaveCount(3);
  await page.getByLabel("Select this page").check();
  const bar = page.getByRole("region", { name: "Bulk actions" });
  await expect(bar.getByTestId("selected-count")).toHaveText("3 selected");
  await bar.getByLabel("Assign the selected tickets to").selectOption({ label: "Riley Reviewer" });
  await bar.getByRole("button", { name: "Assign" }).click();

  const progress = page.getByTestId("batch-progress");
  await expect(progress.getByRole("heading")).toHaveText("Assigning 3 tickets to Riley Reviewer");
  await expect(progress.getByTestId("batch-summary")).toHaveText("Finished: 3 of 3 settled · 3 done", { timeout: 30_000 });
  await expect(table.getByRole("row").filter({ hasText: "Riley Reviewer" })).toHaveCount(3);

  // Each ticket's trail holds its assignment, made by the admin who started the batch.
  for (const number of numbers) {
    await page.goto(`/audit?ticket=${number}&action=ticket.assigned`);
    await expect(page.getByRole("main").getByText("ticket.assigned", { exact: true })).toHaveCount(1);
  }
});

test("select all in this view selects the view's tickets and says so; a lead is offered no runs", async ({ page, signInAs }) => {
  await signInAs("LEAD");
  await page.goto("/?view=open");
  const bar = page.getByRole("region", { name: "Bulk actions" });
  await expect(bar).toHaveCount(0);
  await page.getByRole("button", { name: /^Select all in this view/ }).click();
  await expect(page.getByTestId("selection-note")).toHaveText(/^(All \d+ tickets of this view are selected\.|The first 500 tickets)/);
  await expect(bar.getByTestId("selected-count")).toHaveText(/^\d+ selected$/);
  // Leads hand work out but never run the agent.
  await expect(bar.getByRole("button", { name: "Run agent" })).toHaveCount(0);
  await expect(bar.getByRole("button", { name: "Assign" })).toBeVisible();
  await bar.getByRole("button", { name: "Clear selection" }).click();
  await expect(bar).toHaveCount(0);
});
