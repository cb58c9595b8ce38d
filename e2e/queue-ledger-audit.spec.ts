// The reading side of the console: the live queue, the ledger and its CSV export, the audit trail.
import { createHmac } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { APIRequestContext } from "@playwright/test";
import { E2E_BUNDLE_KEY, expect, test, webhookHeaders } from "./fixtures";

const BUNDLE = "intake-rules-2026.11";
const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** Delivers a ticket through the signed intake API, as the helpdesk does. */
async function deliver(request: APIRequestContext, input: { subject: string; route: "guarded_agent" | "human_review_now" }) {
  const externalId = `e2e-queue-${unique()}`;
  const routeSignature = createHmac("sha256", E2E_BUNDLE_KEY).update(`${externalId}\n${input.route}\n${BUNDLE}`).digest("hex");
  const raw = JSON.stringify({
    externalId,
    subject: input.subject,
    body: "The speaker I ordered arrived with a dent in the grille.",
    customerEmail: "priya.nair@example.net",
    orderId: "ORD-1004",
    route: input.route,
    bundleVersion: BUNDLE,
    routeSignature,
  });
  const response = await request.post("/api/intake/tickets", {
    data: Buffer.from(raw),
    headers: webhookHeaders(raw),
  });
  expect(response.status()).toBe(201);
  return response.json() as Promise<{ ticketId: string; number: number; status: string }>;
}

test("a reviewer sees the waiting tickets with words and codes, and filters by status", async ({ page, signInAs, request }) => {
  const opened = await deliver(request, { subject: `Dented speaker ${unique()}`, route: "guarded_agent" });
  expect(opened.status).toBe("open");
  await signInAs("REVIEWER");
  const queue = page.getByRole("table", { name: "Tickets waiting for a person, newest first" });

  // A new ticket waits for a person (nobody has run the agent on it yet): in the default view.
  await expect(queue.getByRole("row").filter({ hasText: `#${opened.number} ` })).toHaveCount(1);

  // Filter with the keyboard: the select by its label, then Enter on the button.
  await page.getByLabel("Status").selectOption("open");
  await page.getByRole("button", { name: "Apply filters" }).press("Enter");
  await expect(page).toHaveURL(/[?&]status=open/);
  await expect(queue.getByRole("link", { name: new RegExp(`^#${opened.number} `) })).toBeVisible();
  await expect(queue.getByText("bypassed", { exact: true })).toHaveCount(0);
  await expect(page.getByLabel("Status")).toHaveValue("open");

  await page.getByLabel("Status").selectOption("bypassed");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]status=bypassed/);
  // The seeded stale-bundle ticket was bypassed at intake: its status and reason in words, codes beside.
  const stale = queue.getByRole("row").filter({ hasText: "Speaker stopped working" });
  await expect(stale).toContainText("Bypassed");
  await expect(stale).toContainText("bypassed");
  await expect(stale).toContainText("Routed by an intake bundle that is no longer pinned");
  await expect(stale).toContainText("stale_intake_bundle");
  await expect(stale.getByRole("link", { name: /Speaker stopped working/ })).toHaveAttribute("href", /^\/tickets\/[0-9a-f-]{36}$/);
  await expect(queue.getByText("open", { exact: true })).toHaveCount(0);

  // A filter that matches nothing says so.
  await page.getByLabel("Reason").selectOption("tool_timeout");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByText("No tickets match these filters")).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel("Reason")).toHaveValue("");
});

test("a ticket that arrives after the queue loaded appears without a reload", async ({ page, signInAs, request }) => {
  await signInAs("REVIEWER");
  const queue = page.getByRole("table", { name: "Tickets waiting for a person, newest first" });
  await expect(queue).toBeVisible();
  // A full reload would drop this marker.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

  const subject = `Arrived while watching ${unique()}`;
  const created = await deliver(request, { subject, route: "human_review_now" });
  expect(created.status).toBe("bypassed");

  const row = queue.getByRole("row").filter({ hasText: subject });
  await expect(row).toBeVisible({ timeout: 12_000 });
  await expect(row).toContainText("classifier_human_review");
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

test("a lead opens the audit trail and sees that the chain verifies", async ({ page, signInAs }) => {
  await signInAs("LEAD");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" }).click();
  await expect(page.getByRole("heading", { name: "Audit", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "The audit chain verifies" })).toBeVisible();
  const events = page.getByRole("table", { name: "Audit events, newest first" });
  await expect(events.getByRole("row").filter({ hasText: "ticket.created" }).first()).toBeVisible();
  // Newest first: each row's event number is below the one above it.
  const seqs = (await events.getByRole("row").allInnerTexts()).flatMap((row) =>
    /#(\d+)/.exec(row) ? [Number(/#(\d+)/.exec(row)![1])] : [],
  );
  expect(seqs.length).toBeGreaterThan(2);
  expect(seqs).toEqual([...seqs].sort((a, b) => b - a));

  await page.getByLabel("Ticket").fill("#1");
  await page.getByLabel("Ticket").press("Enter");
  await expect(page.getByText(/Events of/)).toContainText("ticket #1");
  // Each event in words, the raw event behind a toggle.
  const created = events.getByRole("row").filter({ hasText: "ticket.created" });
  await expect(created).toHaveCount(1);
  await expect(created.getByTestId("event-words")).toHaveText(/^The system received a ticket/);
  await created.getByText("Show the raw event").click();
  await expect(created.getByText("Inputs", { exact: true })).toBeVisible();

  await page.getByLabel("Ticket").fill("987654");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No such ticket")).toBeVisible();
});

test("a specialist downloads the ledger as CSV; a reviewer may not", async ({ page, signInAs, browser }) => {
  await signInAs("SPECIALIST");
  await page.goto("/ledger");
  await expect(page.getByRole("heading", { name: "Ledger", level: 1 })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /Download CSV/ }).click()]);
  expect(download.suggestedFilename()).toMatch(/^countersign-ledger-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile((await download.path())!, "utf8");
  expect(text.split("\r\n")[0]).toBe(
    "created_at,entry_id,order_id,amount,currency,kind,actor_type,actor_id,actor_name,approved_by,approver_ids,ticket_number,approval_request_id,idempotency_key,provider,provider_refund_id,state,failure_reason",
  );

  // A reviewer's session is refused both the page and the export.
  const context = await browser.newContext();
  const reviewer = await context.newPage();
  await reviewer.goto("/signin");
  await reviewer.getByLabel("Email").fill("reviewer@example.com");
  await reviewer.getByLabel("Password").fill("countersign-demo");
  await reviewer.getByRole("button", { name: "Sign in" }).click();
  await expect(reviewer.getByRole("heading", { name: "Queue", level: 1 })).toBeVisible();
  expect((await reviewer.request.get("/api/ledger/export")).status()).toBe(403);
  expect((await reviewer.goto("/ledger"))?.status()).toBe(403);
  await context.close();
});
