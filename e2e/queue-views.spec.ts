// The queue's work views: a claimed ticket in the reviewer's worklist; the oldest overdue ticket first.
import { createHmac } from "node:crypto";
import { E2E_BUNDLE_KEY, expect, test, webhookHeaders } from "./fixtures";

const BUNDLE = "intake-rules-2026.11";

test("a reviewer claims a ticket and sees it in Mine", async ({ page, signInAs, request }) => {
  const externalId = `e2e-claim-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const subject = `Mixer hums loudly ${externalId.slice(-6)}`;
  const route = "human_review_now";
  const raw = JSON.stringify({
    externalId,
    subject,
    body: "The mixer hums even when switched off.",
    customerEmail: "priya.nair@example.net",
    orderId: "ORD-1004",
    route,
    bundleVersion: BUNDLE,
    routeSignature: createHmac("sha256", E2E_BUNDLE_KEY).update(`${externalId}\n${route}\n${BUNDLE}`).digest("hex"),
  });
  const delivered = await request.post("/api/intake/tickets", { data: Buffer.from(raw), headers: webhookHeaders(raw) });
  expect(delivered.status()).toBe(201);
  const { ticketId } = (await delivered.json()) as { ticketId: string };

  await signInAs("REVIEWER");
  await page.goto(`/tickets/${ticketId}`);
  const panel = page.getByRole("form", { name: "Assignee" });
  await expect(panel.getByTestId("assignee")).toHaveText("Unassigned");
  await panel.getByRole("button", { name: "Claim this ticket" }).click();
  await expect(panel.getByTestId("assignee")).toHaveText("Assigned to Riley Reviewer (you)");
  await expect(page.getByText("Assigned to Riley Reviewer", { exact: true })).toBeVisible();
  // The claim is in the ticket's audit trail.
  await expect(page.getByRole("region", { name: /Audit events/ })).toContainText("ticket.assigned");

  await page.goto("/");
  await page.getByRole("navigation", { name: "Queue views" }).getByRole("link", { name: /^Mine/ }).click();
  await expect(page).toHaveURL(/[?&]view=mine/);
  const mine = page.getByRole("table", { name: /^Mine:/ });
  const row = mine.getByRole("row").filter({ hasText: subject });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Riley Reviewer");
});

test("the oldest overdue ticket is first in its view, with its SLA badge", async ({ page, signInAs }) => {
  await signInAs("ADMIN");
  // The demo's bypassed tickets arrived an hour or more ago (the chargeback threat 80 minutes, the
  // speaker 70): with a one-hour hand-off target both are overdue, the older first.
  await page.goto("/admin");
  const target = page.getByLabel("SLA: hours a ticket handed to a person may wait");
  await target.fill("1");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-message")).toContainText("Saved");
  try {
    await page.goto("/?view=bypassed");
    const view = page.getByRole("table", { name: /^Bypassed:/ });
    const rows = view.getByRole("row").filter({ has: page.getByTestId("sla") });
    await expect(rows.first()).toContainText("Refund now or I file a chargeback");
    await expect(rows.first().getByTestId("sla")).toHaveText(/^Overdue/);
    await expect(rows.nth(1)).toContainText("Speaker stopped working");
    // Oldest first: every later row arrived after the first.
    const times = await view.locator("time").evaluateAll((els) => els.map((e) => Date.parse(e.getAttribute("datetime")!)));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  } finally {
    await page.goto("/admin");
    await page.getByLabel("SLA: hours a ticket handed to a person may wait").fill("24");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByTestId("settings-message")).toContainText("Saved");
  }
});
