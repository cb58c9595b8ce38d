// The keyboard: on a ticket, a approves only after a confirmation that names the amount; keys do
// nothing while typing; Enter in the rejection's note never approves; ? lists the keys.
import { expect, test } from "./fixtures";

test("on a ticket, a asks to confirm and then approves; keys and Enter do nothing while typing; ? lists the keys", async ({
  page,
  signInAs,
}) => {
  await signInAs("REVIEWER");
  await page.goto("/tickets/e2e-keyboard");
  await page.getByRole("button", { name: "Run agent" }).click();
  const decision = page.getByRole("form", { name: "Decision" });
  await expect(decision.getByRole("button", { name: "Approve" })).toBeEnabled({ timeout: 20_000 });

  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toContainText("Approve (asks to confirm)");
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();

  // Typing in the note: the letters are text, and Enter submits nothing.
  await page.keyboard.press("r");
  const note = decision.getByLabel(/^Note/);
  await expect(note).toBeFocused();
  await page.keyboard.type("a reason");
  await expect(note).toHaveValue("a reason");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Approve?" })).toBeHidden();
  await expect(decision.getByTestId("decision-message")).toHaveText("");
  await note.fill("");

  // a, away from any field: a confirmation that names what approving does; Cancel does nothing.
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  await page.keyboard.press("a");
  const confirm = page.getByRole("dialog", { name: "Approve?" });
  await expect(confirm).toContainText(/^Approve\?Refund 79\.00 USD on ORD-E2E-\d+ and send the reply\./);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText(/^Approved by/)).toHaveCount(0);

  await page.keyboard.press("a");
  await confirm.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(/^Approved by Riley Reviewer/)).toBeVisible();
  await expect(page.getByText(/^Ledger: 79\.00 USD refunded/)).toHaveCount(1);
});

test("on the queue, j and k move through the tickets, Enter opens one, / goes to the search; nothing moves while typing", async ({
  page,
  signInAs,
}) => {
  await signInAs("REVIEWER");
  const rows = page.locator("[data-shortcut-row]");
  await expect(rows.nth(1)).toBeVisible();
  await page.keyboard.press("j");
  await expect(rows.nth(0)).toBeFocused();
  await page.keyboard.press("j");
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press("k");
  await expect(rows.nth(0)).toBeFocused();
  const href = await rows.nth(0).getAttribute("href");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await page.goBack();

  await expect(rows.nth(1)).toBeVisible();
  await page.keyboard.press("/");
  const search = page.getByRole("searchbox", { name: "Search tickets" });
  await expect(search).toBeFocused();
  await page.keyboard.type("jk/");
  await expect(search).toHaveValue("jk/");
  await expect(search).toBeFocused();
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeHidden();
});
