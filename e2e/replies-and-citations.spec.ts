// What the customer reads, and where a citation leads: a lowered refund's reply, a hand reply's
// preview, each citation's passage, and who may claim a ticket someone holds. One scenario ticket per
// test (prisma/seed/e2e.ts). With SCREENSHOTS=1 the ticket page is saved at 390 and 1440 px wide.
import type { Page } from "@playwright/test";
import { expect, signedInPage, test } from "./fixtures";

const CITATION_TOKEN = /\[[a-z0-9][a-z0-9-]*@\d+\]/;

async function openTicket(page: Page, externalId: string) {
  await page.goto(`/tickets/${externalId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

async function run(page: Page, button: "Run agent" | "Run in simulate mode") {
  await page.getByRole("button", { name: button }).click();
  await expect(page.getByRole("button", { name: button })).toBeEnabled({ timeout: 20_000 });
  await expect(page.getByRole("region", { name: /Agent runs/ }).getByRole("article")).toHaveCount(1);
}

/** The whole page, and the Decision card alone (the page is long at 390 px). */
async function screenshots(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return;
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
    await page
      .locator('section[aria-labelledby="decision-heading"]')
      .screenshot({ path: test.info().outputPath(`${name}-${width}-decision.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

const decision = (page: Page) => page.getByRole("form", { name: "Decision" });

test("a lowered refund's reply no longer promises a full refund, and is approved as it reads", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-lowered-reply");
  await run(page, "Run agent");
  const preview = decision(page).getByLabel(/What the customer receives/);
  await expect(preview).toContainText("a full refund");
  await expect(preview).toContainText("79.00 USD");

  await decision(page)
    .getByLabel(/Refund amount/)
    .fill("50.00");
  await expect(preview).toContainText("We have refunded 50.00 USD");
  await expect(preview).not.toContainText(/\bfull\b|79\.00/);
  await expect(preview).not.toContainText(CITATION_TOKEN);
  await decision(page).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(/^Approved by Riley Reviewer/)).toBeVisible();
  await expect(page.getByTestId("edited-proposal")).toContainText("lowered it to 50.00 USD");
});

test("two sentences citing two passages of one document link to two passages, and each opens its own", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-two-citations");
  await run(page, "Run agent");
  const links = page.getByRole("link", { name: "Open cited passage return-policy-us@2" });
  await expect(links).toHaveCount(2);
  const [first, second] = [await links.nth(0).getAttribute("href"), await links.nth(1).getAttribute("href")];
  expect(first).toMatch(/^\/documents\/return-policy-us\/2#passage-[0-9a-f-]+$/);
  expect(second).toMatch(/^\/documents\/return-policy-us\/2#passage-[0-9a-f-]+$/);
  expect(second).not.toBe(first);
  await screenshots(page, "ticket-draft-with-citations");

  await links.nth(1).click();
  await expect(page).toHaveURL(new RegExp(`${second!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  // The passage the link names is the one the browser lands on, and it is the sentence's own.
  const target = page.locator(":target");
  await expect(target).toHaveAttribute("id", second!.split("#")[1]!);
  await expect(target).toContainText("original payment method");
});

test("a hand reply after a simulated refund starts empty, and shows what the customer receives live as it is written", async ({
  page,
  signInAs,
}) => {
  await signInAs("REVIEWER");
  await openTicket(page, "e2e-hand-reply");
  await run(page, "Run in simulate mode");
  const form = page.getByRole("form", { name: "Resolve by hand" });
  const reply = form.getByLabel("Your reply to the customer");
  const preview = form.getByLabel(/What the customer receives/);
  // The simulated run proposed a refund, so its draft says "we have refunded 79.00 USD": a reply
  // written by hand moves no money, and does not start from that promise.
  await expect(page.getByText(/We have refunded 79\.00 USD/)).not.toHaveCount(0);
  await expect(reply).toHaveValue("");
  await screenshots(page, "ticket-hand-reply");

  await reply.fill("Hi Casey,\n\nWe answer within one business day [support-sla@1] .\nA colleague will call you about the tablet.");
  await expect(preview).toHaveText("Hi Casey, We answer within one business day. A colleague will call you about the tablet.");
  await form.getByRole("button", { name: "Send reply and resolve" }).click();
  await expect(form).toHaveCount(0);
});

test("a reviewer opening a ticket a specialist claimed is offered no Claim, is told who holds it, and may still assign it", async ({
  page,
  signInAs,
  browser,
}) => {
  const specialist = await signedInPage(browser, "SPECIALIST");
  await openTicket(specialist, "e2e-claimed");
  await specialist.getByRole("form", { name: "Assignee" }).getByRole("button", { name: "Claim this ticket" }).click();
  await expect(specialist.getByTestId("assignee")).toHaveText("Assigned to Sam Specialist (you)");
  await specialist.context().close();

  await signInAs("REVIEWER");
  await openTicket(page, "e2e-claimed");
  const panel = page.getByRole("form", { name: "Assignee" });
  await expect(panel.getByTestId("assignee")).toHaveText("Assigned to Sam Specialist");
  await expect(panel.getByRole("button", { name: /Claim/ })).toHaveCount(0);
  await expect(panel).toContainText("Sam Specialist holds this ticket");
  // Taking it over is an assignment, which the domain allows anyone who may assign.
  await panel.getByLabel("Assign to").selectOption({ label: "Riley Reviewer (reviewer)" });
  await panel.getByRole("button", { name: "Assign", exact: true }).click();
  await expect(panel.getByTestId("assignee")).toHaveText("Assigned to Riley Reviewer (you)");
});
