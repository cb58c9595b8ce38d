// Editing a refund before approving it, and the two-person rule, end to end: real Chromium, real
// server, one scenario ticket per test (prisma/seed/e2e.ts).
import type { Page } from "@playwright/test";
import { expect, signedInPage, test } from "./fixtures";

async function openTicket(page: Page, externalId: string) {
  await page.goto(`/tickets/${externalId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

/** Runs the agent up to its approval stop: a decision waits (for this person, or for someone who may take it). */
async function runAgent(page: Page) {
  await page.getByRole("button", { name: "Run agent" }).click();
  await expect(page.getByRole("button", { name: "Run agent" })).toBeEnabled({ timeout: 20_000 });
  await expect(page.getByRole("heading", { name: /^Waiting for (your|a) decision$/ })).toBeVisible();
}

const decision = (page: Page) => page.getByRole("form", { name: "Decision" });
const ledgerLines = (page: Page) => page.getByText(/^Ledger: /);

/** Approve, confirming the amount in the dialog when the page asks for it. */
async function approve(page: Page, confirmText?: string) {
  await decision(page).getByRole("button", { name: "Approve" }).click();
  if (confirmText) {
    const confirm = page.getByRole("dialog", { name: "Approve?" });
    await expect(confirm).toContainText(confirmText);
    await confirm.getByRole("button", { name: "Approve" }).click();
  }
}

test("a reviewer lowers a refund from 79.00 to 50.00 and approves: the ledger row is 50.00, the agent's 79.00 shown beside it", async ({
  page,
  signInAs,
}) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-edit");
  await runAgent(page);
  const amount = decision(page).getByLabel(/Refund amount/);
  await expect(amount).toHaveValue("79.00");
  await amount.fill("50.00");
  // The reply follows the amount as it is typed: what is approved is what the person reads.
  await expect(page.getByTestId("customer-text")).toContainText("50.00 USD");
  await expect(page.getByTestId("customer-text")).not.toContainText("79.00");
  await expect(decision(page).getByText(/Lowered from 79\.00/)).toBeVisible();
  await approve(page);

  await expect(page.getByText(/^Approved by Riley Reviewer/)).toBeVisible();
  await expect(ledgerLines(page)).toHaveCount(1);
  await expect(ledgerLines(page)).toContainText("50.00 USD refunded on ORD-E2E-19");
  await expect(page.getByTestId("edited-proposal")).toContainText("The agent proposed 79.00 USD; Riley Reviewer lowered it to 50.00 USD");
  await page.reload();
  await expect(ledgerLines(page)).toHaveCount(1);
  await expect(page.getByRole("region", { name: /Audit events/ }).getByText("approval.edited")).toBeVisible();
});

test("raising the refund is refused: nothing is written and the request still waits", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-raise");
  await runAgent(page);
  await decision(page)
    .getByLabel(/Refund amount/)
    .fill("80.00");
  await expect(decision(page).getByText(/may only be lowered/)).toBeVisible();
  // The page warns; the server is what refuses.
  await approve(page);
  await expect(page.getByTestId("decision-message")).toContainText("may only be lowered");
  await page.reload();
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toBeVisible();
  await expect(page.getByText("Refund 79.00 USD on ORD-E2E-20")).toBeVisible();
  await expect(ledgerLines(page)).toHaveCount(0);
});

test("a reply edited to state another amount is refused as it is written: the sentence beside the reply, no Approve until it is corrected; nothing is written", async ({
  page,
  signInAs,
}) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-edited-reply");
  await runAgent(page);
  const reply = decision(page).getByLabel(/Reply to the customer/);
  const approveButton = decision(page).getByRole("button", { name: "Approve" });
  await expect(approveButton).toBeEnabled();
  await reply.fill("Hi Casey,\n\nSorry about the screen. We have refunded 5,000.00 USD.");
  // The form asks the decision's own check as the reply changes: Approve waits for a reply that says what is done.
  await expect(approveButton).toBeDisabled();
  const refusal = decision(page).getByTestId("reply-error");
  await expect(refusal).toHaveText(
    "The reply states an amount other than the refund being made (79.00 USD): “We have refunded 5,000.00 USD.” Write the refund's amount, or take the amount out.",
  );
  await expect(reply).toHaveAttribute("aria-invalid", "true");
  await expect(reply).toHaveAttribute("aria-describedby", "editedReply-error");
  // SCREENSHOTS=1 keeps the form with its refusal at the widths a person uses, to look at.
  for (const width of process.env.SCREENSHOTS ? [320, 390, 1440] : []) {
    await page.setViewportSize({ width, height: 900 });
    await decision(page).screenshot({ path: test.info().outputPath(`reply-refused-${width}.png`) });
  }
  await reply.fill("Hi Casey,\n\nSorry about the screen. We have refunded 79.00 USD.");
  await expect(refusal).toHaveCount(0);
  await expect(approveButton).toBeEnabled();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toBeVisible();
  await expect(ledgerLines(page)).toHaveCount(0);
});

test("a 1,200 USD refund needs two different approvers: the first approver's second approval is refused, the ledger row appears only after the second person", async ({
  page,
  signInAs,
  browser,
}) => {
  // Three people sign in, a run and two approvals with reloads between: 31 s once under CI's load.
  test.setTimeout(60_000);
  // The reviewer starts the run; a specialist and an admin approve (1,200 USD needs a specialist).
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-two-person");
  await runAgent(page);
  await expect(page.getByTestId("approvals-count")).toContainText("0 of 2 approvals");
  // A reviewer may not decide a specialist's refund: the page does not say it waits for them.
  await expect(page.getByRole("heading", { name: "Waiting for a decision" })).toBeVisible();

  const specialist = await signedInPage(browser, "SPECIALIST");
  await openTicket(specialist, "e2e-two-person");
  const posted = specialist.waitForRequest((r) => r.method() === "POST" && !!r.headers()["next-action"]);
  await approve(specialist, "Refund 1200.00 USD on ORD-E2E-21");
  const first = await posted;
  await expect(specialist.getByTestId("decision-message")).toContainText("Approval 1 of 2 recorded");
  await specialist.reload();
  await expect(specialist.getByTestId("approvals-count")).toContainText("1 of 2 approvals · first given by Sam Specialist");
  await expect(decision(specialist).getByRole("button", { name: "Approve" })).toBeDisabled();
  await expect(specialist.getByText("You gave the first approval: the second must come from a different person.")).toBeVisible();
  // The same approval again, byte for byte, as the same person: refused by the server.
  const replay = await specialist.request.fetch(first.url(), {
    method: "POST",
    headers: await first.allHeaders(),
    data: first.postDataBuffer() ?? undefined,
  });
  expect(await replay.text()).toContain("the second must come from a different person");
  await expect(ledgerLines(specialist)).toHaveCount(0);

  // The run's starter may not give the second approval either.
  await page.reload();
  await expect(decision(page).getByRole("button", { name: "Approve" })).toBeDisabled();

  const admin = await signedInPage(browser, "ADMIN");
  await openTicket(admin, "e2e-two-person");
  await approve(admin, "Refund 1200.00 USD on ORD-E2E-21");
  await expect(admin.getByText(/^Approved by Sam Specialist \(Specialist\) and Ada Admin \(Admin\)/)).toBeVisible();
  await expect(ledgerLines(admin)).toHaveCount(1);
  await expect(ledgerLines(admin)).toContainText("1200.00 USD refunded on ORD-E2E-21");
  await specialist.context().close();
  await admin.context().close();
});
