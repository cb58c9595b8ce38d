// Tickets as conversations, end to end: a signed follow-up reaches a ticket waiting for approval,
// supersedes its request and names the customer's other order, which the next run drafts about; a
// reviewer sends a draft back with a note, and the next run's record shows the note it read; the
// approved reply joins the conversation with its delivery's state.
import type { Page } from "@playwright/test";
import { expect, test, webhookHeaders } from "./fixtures";

const FOLLOW_UP_ORDER = "ORD-E2E-702";

// Two runs of the agent and a page reload or two each: more than the default on a busy machine.
test.describe.configure({ timeout: 120_000 });

async function openTicket(page: Page, externalId: string) {
  await page.goto(`/tickets/${externalId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

async function runAgent(page: Page) {
  await page.getByRole("button", { name: "Run agent" }).click();
  await expect(page.getByRole("button", { name: "Run agent" })).toBeEnabled({ timeout: 30_000 });
}

const decision = (page: Page) => page.getByRole("form", { name: "Decision" });
const conversation = (page: Page) => page.getByRole("region", { name: /^Conversation/ });

async function screenshots(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`conversations-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("a follow-up on a ticket waiting for approval supersedes the request, and the next run drafts about the order it names", async ({
  page,
  signInAs,
}) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-follow-up");
  await runAgent(page);
  await expect(decision(page).getByRole("button", { name: "Approve" })).toBeEnabled();

  const raw = JSON.stringify({
    externalId: "e2e-follow-up",
    messageId: "hd-msg-e2e-1",
    body: `Sorry, I gave you the wrong order: it is ${FOLLOW_UP_ORDER}.`,
  });
  const headers = webhookHeaders(raw);
  const delivered = await page.request.post("/api/intake/messages", { data: Buffer.from(raw), headers });
  expect(delivered.status()).toBe(201);
  const answer = await delivered.json();
  expect(answer).toMatchObject({ messageId: "hd-msg-e2e-1", status: "open" });
  expect(answer.superseded).toHaveLength(1);
  // The helpdesk's retry of the same message: one message, nothing superseded again.
  const again = await page.request.post("/api/intake/messages", { data: Buffer.from(raw), headers: webhookHeaders(raw) });
  expect(again.status()).toBe(200);

  await page.reload();
  await expect(page.getByText("customer_follow_up").first()).toBeVisible();
  await expect(decision(page)).toHaveCount(0);
  const messages = conversation(page).getByRole("listitem");
  await expect(messages).toHaveCount(3);
  await expect(messages.nth(0)).toContainText("Customer");
  await expect(messages.nth(1)).toContainText("Agent's draft");
  await expect(messages.nth(2)).toContainText(`it is ${FOLLOW_UP_ORDER}`);
  await screenshots(page, "follow-up");

  await runAgent(page);
  await expect(decision(page).getByLabel(/^Reply to the customer/)).toHaveValue(new RegExp(FOLLOW_UP_ORDER));
  await expect(conversation(page).getByRole("listitem")).toHaveCount(4);
});

test("a reviewer sends the draft back with a note; the next run's record shows the note it read", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-send-back");
  await runAgent(page);
  const note = "Please mention that the refund goes back to the original card.";
  await decision(page).getByLabel(/^Note/).fill(note);
  await decision(page).getByRole("button", { name: "Send back with feedback" }).click();
  // The request is gone from the page once it is superseded: the note is in the conversation instead.
  await expect(conversation(page).getByRole("listitem").last()).toContainText(note, { timeout: 30_000 });

  await page.reload();
  await expect(page.getByText("reviewer_feedback").first()).toBeVisible();
  await expect(conversation(page).getByRole("listitem").last()).toContainText(note);

  await runAgent(page);
  const latestRun = page.getByRole("article").first();
  await expect(latestRun.getByTestId("run-feedback")).toContainText(note);
  // An internal note joins the conversation for the team.
  const noteForm = page.getByRole("form", { name: "Internal note" });
  await noteForm.getByLabel(/^Internal note/).fill("Checked with the warehouse: the card refund is fine.");
  await noteForm.getByRole("button", { name: "Add note" }).click();
  await expect(conversation(page).getByRole("listitem").last()).toContainText("Checked with the warehouse");
  await screenshots(page, "send-back");

  // Approved, the reply is released and delivered through the installation's channel (the polled
  // outbox here, by the server's worker): the conversation shows it with its delivery's state.
  await decision(page).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(/^Approved by Riley Reviewer/)).toBeVisible();
  const sent = conversation(page).locator('li[data-kind="sent_reply"]');
  await expect(async () => {
    await page.reload();
    await expect(sent.getByTestId("delivery-state")).toHaveText(/^Delivered .* UTC, waiting to be fetched$/, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(sent).toContainText("helpdesk outbox");
});
