// Audit events in words a person reads: on a ticket's page, who did what (people by name, amounts
// with their currency), the recorded event only behind a closed disclosure; on the audit page, the
// person a change to people was about.
import { ACCOUNTS, deliverTicket, expect, test } from "./fixtures";

const unique = () => Math.random().toString(36).slice(2, 8);

test("a ticket that ran and was decided tells its audit events as sentences, the raw events folded away", async ({ page, signInAs }) => {
  // The flagged customer's headphones: a refund a reviewer must decide, on an order no other test uses.
  const ticket = await deliverTicket(page.request, {
    subject: `Headphones arrived with a cracked ear cup (${unique()})`,
    body: "My headphones from order ORD-1003 arrived with a cracked ear cup. Can I get a refund?",
    customerEmail: "quinn.harlow@example.net",
    orderId: "ORD-1003",
  });
  await signInAs("REVIEWER");
  await page.goto(`/tickets/${ticket.ticketId}`);
  await page.getByRole("button", { name: "Run agent" }).click();
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("form", { name: "Decision" }).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(/^Approved by Riley Reviewer/)).toBeVisible();
  await expect(page.getByText(/^Ledger: /)).toHaveCount(1);
  await page.reload();

  const audit = page.getByRole("region", { name: /Audit events/ });
  const on = `ticket #${ticket.number}`;
  await expect(audit).toContainText(`The agent started a run on ${on}.`);
  await expect(audit).toContainText(/The agent recorded a refund proposal of \d+\.\d{2} USD on ticket #\d+\./);
  await expect(audit).toContainText(`${ACCOUNTS.REVIEWER.name} approved the refund on ${on}.`);
  await expect(audit).toContainText(/The refund worker refunded \d+\.\d{2} USD on order ORD-1003 \(ticket #\d+\)\./);
  // Nothing raw while the disclosures are closed: no JSON, no id in place of a name.
  const shown = await audit.innerText();
  expect(shown).not.toContain("{");
  expect(shown).not.toMatch(/by (user|agent|system) [0-9a-f]{8}/);

  // The recorded event is one click away, and closes again.
  const approved = audit.getByRole("listitem").filter({ hasText: "approved the refund" });
  await approved.getByText("Show the raw event").click();
  await expect(approved.getByRole("group").first()).toContainText('{"');
  await approved.getByText("Hide the raw event").click();
  expect(await audit.innerText()).not.toContain("{");
});

test("the audit page names the person an admin deactivated", async ({ page, signInAs }) => {
  const who = { email: `quill-${unique()}@example.com`, name: `Morgan Quill ${unique()}` };
  await signInAs("ADMIN");
  await page.goto("/admin/users");
  const form = page.getByRole("form", { name: "Add a person" });
  await form.getByLabel("Email").fill(who.email);
  await form.getByLabel("Name").fill(who.name);
  await form.getByLabel("Role").selectOption({ label: "Reviewer" });
  await form.getByRole("button", { name: "Add person" }).click();
  await expect(page.getByRole("textbox", { name: `Set-password link for ${who.email}` })).toBeVisible();

  const row = page.getByRole("row", { name: new RegExp(who.email) });
  await row.getByRole("button", { name: `Deactivate ${who.email}` }).click();
  await row.getByRole("button", { name: `Confirm deactivate ${who.email}` }).click();
  await expect(row).toContainText("Deactivated");

  await page.goto("/audit?action=user.deactivated");
  const events = page.getByRole("table", { name: "Audit events, newest first" });
  await expect(events.getByTestId("event-words").first()).toHaveText(`${ACCOUNTS.ADMIN.name} deactivated ${who.name}.`);
});
