// The approval flows end to end: real Chromium, real server, fresh database with one scenario
// ticket per test (prisma/seed/e2e.ts), so tests never share an order or an approval.
import type { Page } from "@playwright/test";
import { createHmac } from "node:crypto";
import { changePolicy, E2E_INTAKE_SECRET, expect, signedInPage, test } from "./fixtures";

async function openTicket(page: Page, externalId: string) {
  await page.goto(`/tickets/${externalId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

async function runAgent(page: Page, mode: "live" | "simulate" = "live") {
  await page.getByRole("button", { name: mode === "live" ? "Run agent" : "Run in simulate mode" }).click();
  await expect(page.getByRole("button", { name: mode === "live" ? "Run agent" : "Run in simulate mode" })).toBeEnabled({ timeout: 20_000 });
}

/** Every outbox message, read as the helpdesk reads them: a signed GET, a page at a time. */
async function readOutbox(page: Page): Promise<{ externalId: string; body: string }[]> {
  const messages: { id: string; externalId: string; body: string }[] = [];
  for (;;) {
    const pathAndQuery = `/api/outbox?limit=100${messages.length ? `&after=${messages.at(-1)!.id}` : ""}`;
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = `sha256=${createHmac("sha256", E2E_INTAKE_SECRET).update(`${timestamp}\nGET\n${pathAndQuery}`).digest("hex")}`;
    const response = await page.request.get(pathAndQuery, {
      headers: { "x-countersign-timestamp": String(timestamp), "x-countersign-signature": signature },
    });
    expect(response.status()).toBe(200);
    const batch = ((await response.json()) as { messages: { id: string; externalId: string; body: string }[] }).messages;
    messages.push(...batch);
    if (batch.length < 100) return messages;
  }
}

const ledgerLines = (page: Page) => page.getByText(/^Ledger: /);
const decision = (page: Page) => page.getByRole("form", { name: "Decision" });

test("a reviewer runs the agent, opens the cited passage, approves, and exactly one ledger row appears", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-approve");
  await runAgent(page);
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toBeVisible();
  await expect(page.getByText("Refund 79.00 USD on ORD-E2E-01")).toBeVisible();

  // The draft's citation opens the cited passage of the approved document version.
  const citation = page.getByRole("link", { name: "Open cited passage return-policy-us@2" }).first();
  await expect(citation).toBeVisible();
  const ticketUrl = page.url();
  await citation.click();
  await expect(page).toHaveURL(/\/documents\/return-policy-us\/2#passage-/);
  await expect(page.getByRole("heading", { name: "US return policy: damaged electronics" })).toBeVisible();
  await expect(page.locator(":target")).toContainText("within 30 days of delivery");
  await page.goto(ticketUrl);

  // The reviewer sees what the customer will receive: the same words without the citations.
  const customerText = page.getByTestId("customer-text");
  await expect(customerText).toContainText("within 30 days of delivery.");
  await expect(customerText).not.toContainText("return-policy-us@2");

  // Approved untouched: the browser sends the textarea back with CRLF line endings.
  await decision(page).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(/^Approved by Riley Reviewer/)).toBeVisible();
  await expect(ledgerLines(page)).toHaveCount(1);
  await expect(ledgerLines(page)).toContainText("79.00 USD refunded on ORD-E2E-01");
  await page.reload();
  await expect(ledgerLines(page)).toHaveCount(1);
  await expect(page.getByText("The reply was edited before approval")).toHaveCount(0);

  // The outbox, as the helpdesk reads it: clean text, worded for after the refund.
  const sent = (await readOutbox(page)).filter((m) => m.externalId === "e2e-approve");
  expect(sent).toHaveLength(1);
  expect(sent[0]!.body).toContain("We have refunded 79.00 USD in full.");
  expect(sent[0]!.body).not.toMatch(/\[[a-z0-9-]+@\d+\]|once a member|approved it|\r/);
});

test("a double click on Approve still gives one ledger row", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-double");
  await runAgent(page);
  await decision(page).getByRole("button", { name: "Approve" }).dblclick();
  await expect(page.getByText(/^Approved by Riley Reviewer/)).toBeVisible();
  await page.reload();
  await expect(ledgerLines(page)).toHaveCount(1);
});

test("a resubmitted approval form is refused and still gives one ledger row", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-resubmit");
  await runAgent(page);
  const posted = page.waitForRequest((r) => r.method() === "POST" && !!r.headers()["next-action"]);
  await decision(page).getByRole("button", { name: "Approve" }).click();
  const original = await posted;
  await expect(page.getByText(/^Approved by Riley Reviewer/)).toBeVisible();

  // The same request again, byte for byte, with the same session: what a browser resubmit sends.
  // allHeaders(): headers() leaves out Origin, which every browser sends and the proxy requires.
  const replay = await page.request.fetch(original.url(), {
    method: "POST",
    headers: await original.allHeaders(),
    data: original.postDataBuffer() ?? undefined,
  });
  expect(await replay.text()).toContain("already been decided");
  await page.reload();
  await expect(ledgerLines(page)).toHaveCount(1);
});

test("a rejection with a note leaves no ledger row, shows in the audit, and the ticket is answered by hand", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-reject");
  await runAgent(page);
  await decision(page).getByRole("button", { name: "Reject" }).click();
  await expect(page.getByTestId("decision-message")).toHaveText("Say why you reject it: a note is required.");
  await decision(page).getByLabel(/^Note/).fill("Photo shows no damage.");
  await decision(page).getByRole("button", { name: "Reject" }).click();
  await expect(page.getByText(/^Rejected by Riley Reviewer/)).toBeVisible();
  await expect(page.getByRole("region", { name: "Decision" })).toContainText("Photo shows no damage.");
  await page.reload();
  await expect(ledgerLines(page)).toHaveCount(0);
  await expect(page.getByRole("region", { name: /Audit events/ }).getByText("approval.rejected")).toBeVisible();

  // Back with a person, who answers the customer by hand.
  await expect(page.getByText("A person rejected the agent's proposal").first()).toBeVisible();
  await page.getByLabel("Your reply to the customer").fill("Could you send us a photo of the damage, please?");
  await page.getByRole("button", { name: "Send reply and resolve" }).click();
  await expect(page.getByText(/Resolved/).first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Your reply to the customer")).toHaveCount(0);
  await expect(page.getByRole("region", { name: /Audit events/ }).getByText("ticket.resolved_by_hand")).toBeVisible();
});

test("a reviewer cannot approve the 650 USD laptop refund, but a specialist can", async ({ page, signInAs, browser }) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-laptop");
  await runAgent(page);
  await expect(page.getByText("Refund 650.00 USD on ORD-E2E-09")).toBeVisible();
  // The domain's own refusal, before any click: not "Waiting for your decision", and the approve key says why.
  await expect(page.getByTestId("why-not")).toHaveText("This refund needs a specialist to decide it.");
  await expect(page.getByRole("heading", { name: "Waiting for a decision" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toHaveCount(0);
  await expect(decision(page).getByRole("button", { name: "Approve" })).toBeDisabled();
  await expect(decision(page).getByRole("button", { name: "Reject" })).toBeDisabled();
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  await page.keyboard.press("a");
  await expect(page.getByTestId("shortcut-notice")).toHaveText(
    "Approve is not available here. This refund needs a specialist to decide it.",
  );

  const specialist = await signedInPage(browser, "SPECIALIST");
  await openTicket(specialist, "e2e-laptop");
  await decision(specialist).getByRole("button", { name: "Approve" }).click();
  // 650 USD is at the specialist threshold: the amount is confirmed first.
  const confirm = specialist.getByRole("dialog", { name: "Approve?" });
  await expect(confirm).toContainText("Refund 650.00 USD on ORD-E2E-09");
  await confirm.getByRole("button", { name: "Approve" }).click();
  await expect(specialist.getByText(/^Approved by Sam Specialist/)).toBeVisible();
  await expect(ledgerLines(specialist)).toHaveCount(1);
  await expect(ledgerLines(specialist)).toContainText("650.00 USD refunded on ORD-E2E-09");
  await specialist.context().close();
});

test("a lead cannot approve at all", async ({ page, signInAs, browser }) => {
  const reviewer = await signedInPage(browser, "REVIEWER");
  await openTicket(reviewer, "e2e-lead");
  await runAgent(reviewer);
  await reviewer.context().close();

  await signInAs("LEAD");
  await openTicket(page, "e2e-lead");
  await expect(page.getByTestId("why-not")).toHaveText("Leads cannot approve or reject requests.");
  await expect(decision(page).getByRole("button", { name: "Approve" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Run agent" })).toHaveCount(0);
});

test("a signed-out request to the approval action is refused", async ({ page, signInAs, browser }) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-signed-out");
  await runAgent(page);
  // Capture the approval request, but never let it reach the server.
  await page.route("**/*", (route) =>
    route.request().method() === "POST" && route.request().headers()["next-action"] ? route.abort() : route.continue(),
  );
  const captured = page.waitForRequest((r) => r.method() === "POST" && !!r.headers()["next-action"]);
  await decision(page).getByRole("button", { name: "Approve" }).click();
  const request = await captured;

  const anonymous = await browser.newContext();
  const { cookie: _cookie, ...headers } = request.headers();
  const response = await anonymous.request.fetch(request.url(), { method: "POST", headers, data: request.postDataBuffer() ?? undefined });
  expect(await response.text()).toContain('"status":"unauthenticated"');
  await anonymous.close();

  await page.unroute("**/*");
  await page.reload();
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toBeVisible();
  await expect(ledgerLines(page)).toHaveCount(0);
});

test("an approval request made stale by a policy change is refused, and the page offers a fresh run that can be approved", async ({
  page,
  signInAs,
  browser,
}) => {
  // Two runs, a policy change from a second browser and an approval, with two waits of up to 20 s
  // of their own: 32 s once with both browser workers running.
  test.setTimeout(60_000);
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-stale");
  await runAgent(page);
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toBeVisible();

  await changePolicy(browser);

  // The page was open before the change: the click is refused as stale.
  await decision(page).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("decision-message")).toHaveText(/policy, intake bundle or agent changed/);
  await expect(ledgerLines(page)).toHaveCount(0);

  // Opened afresh, the request is marked stale before any click, with the run that answers it, and
  // the queue's "Stale approvals" view lists the ticket.
  await page.reload();
  await expect(decision(page).getByTestId("blocked")).toHaveText(/^The policy, intake bundle or agent changed since this request was made/);
  await expect(decision(page).getByRole("button", { name: "Approve" })).toBeDisabled();
  const ticketUrl = page.url();
  await page.goto("/");
  await page
    .getByRole("navigation", { name: "Queue views" })
    .getByRole("link", { name: /^Stale approvals/ })
    .click();
  const staleRow = page
    .getByRole("table", { name: /^Stale approvals:/ })
    .getByRole("row")
    .filter({ hasText: "Tablet arrived with a cracked screen (stale)" });
  await expect(staleRow.getByTestId("stale")).toHaveText("Stale: run again");
  await page.goto(ticketUrl);

  // The refusal's code (stale) is what the page branches on: it offers the run that answers it.
  await page.getByTestId("run-again").getByRole("button", { name: "Run the agent again" }).click();
  await expect(page.getByTestId("decision-message")).toHaveText("", { timeout: 20_000 });
  await expect(page.getByTestId("run-again")).toHaveCount(0);
  await decision(page).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(/^Approved by Riley Reviewer/)).toBeVisible({ timeout: 20_000 });
  await page.reload();
  await expect(ledgerLines(page)).toHaveCount(1);
});

test("the injection ticket shows the handoff with no citation", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  await openTicket(page, "demo-private-note-injection");
  await runAgent(page);
  await expect(page.getByText("No approved policy covers this ticket").first()).toBeVisible();
  await expect(page.getByText("no_approved_evidence").first()).toBeVisible();
  await expect(page.getByRole("link", { name: /Open cited passage/ })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Evidence" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toHaveCount(0);

  // Nothing to approve: the reviewer writes the reply and resolves the ticket by hand, recorded like any decision.
  const resolve = page.getByRole("form", { name: "Resolve by hand" });
  await resolve
    .getByLabel("Your reply to the customer")
    .fill("We cannot act on notes from sellers. A colleague will review your order today.");
  await resolve.getByRole("button", { name: "Send reply and resolve" }).click();
  await expect(page.getByText(/^Answered by hand by Riley Reviewer/)).toBeVisible();
  await expect(page.getByTestId("reply-sent")).toHaveText("We cannot act on notes from sellers. A colleague will review your order today.");
  await expect(page.getByRole("region", { name: /Audit events/ }).getByText("ticket.resolved_by_hand")).toBeVisible();
  await expect(ledgerLines(page)).toHaveCount(0);
});

test("a bypassed ticket offers no run of the agent: a person handles it", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  await openTicket(page, "demo-stale-bundle");
  await expect(page.getByText("stale_intake_bundle").first()).toBeVisible();
  await expect(page.getByText("This ticket bypassed the agent: a person handles it from the start.")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Run (agent|in simulate mode)$/ })).toHaveCount(0);
  await expect(page.getByRole("form", { name: "Resolve by hand" })).toBeVisible();
});

test("simulate mode shows the same page with a simulated mark and no ledger row", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-simulate");
  // No model is configured in the suite: the choice is shown, unavailable, with the reason.
  await expect(page.getByRole("option", { name: "Model planner (unavailable)" })).toBeDisabled();
  await expect(page.getByText("No model is configured: set LLM_BASE_URL")).toBeVisible();
  await runAgent(page, "simulate");
  const run = page.getByRole("article").first();
  await expect(run.getByText("Simulated", { exact: true })).toBeVisible();
  await expect(run.getByText("draft_ready_for_review")).toBeVisible();
  await expect(run.getByRole("list", { name: /^Trace/ }).getByRole("listitem")).toHaveCount(5);
  // Simulated runs ask nobody to decide, and move nothing.
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toHaveCount(0);
  await expect(ledgerLines(page)).toHaveCount(0);
});
