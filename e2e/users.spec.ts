// People, as an admin manages them: adding someone gives a set-password link (never a password in a
// form) that works once; a role change applies at the person's next request; deactivation ends
// their session at once; each change is in the audit trail. And the last admin stays.
import type { Browser, Page } from "@playwright/test";
import { ACCOUNTS, expect, SignInPage, test } from "./fixtures";

const unique = () => Math.random().toString(36).slice(2, 8);

async function addPerson(page: Page, who: { email: string; name: string; role: string }): Promise<string> {
  await page.goto("/admin/users");
  const form = page.getByRole("form", { name: "Add a person" });
  await form.getByLabel("Email").fill(who.email);
  await form.getByLabel("Name").fill(who.name);
  await form.getByLabel("Role").selectOption({ label: who.role });
  await form.getByRole("button", { name: "Add person" }).click();
  const link = page.getByRole("textbox", { name: `Set-password link for ${who.email}` });
  await expect(link).toBeVisible();
  return link.inputValue();
}

async function setPasswordAndSignIn(browser: Browser, link: string, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Set your password" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await page.getByLabel("New password").fill(password);
  await page.getByLabel("The same password again").fill(password);
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByRole("status")).toContainText("Your password is set");
  await new SignInPage(page).goto();
  await new SignInPage(page).signIn(email, password);
  await expect(page.getByRole("heading", { name: "Queue", level: 1 })).toBeVisible();
  return page;
}

test("an admin adds a person, who sets their password with the link once; the role change and deactivation apply at once and are audited", async ({
  browser,
  page,
  signInAs,
}) => {
  const who = { email: `pat-${unique()}@example.com`, name: "Pat Newcomer", role: "Reviewer" };
  await signInAs("ADMIN");
  const link = await addPerson(page, who);
  expect(new URL(link).pathname).toMatch(/^\/set-password\/[A-Za-z0-9_-]{43}$/);
  // The form is cleared for the next person; the link is not kept anywhere on the page after a reload.
  await expect(page.getByRole("form", { name: "Add a person" }).getByLabel("Email")).toHaveValue("");

  const person = await setPasswordAndSignIn(browser, link, who.email, "pat's very own password");
  // The navigation's entry (a ticket in the queue may have "ledger" in its subject).
  await expect(person.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Ledger", exact: true })).toHaveCount(0);

  // The same link again: refused, with the reason.
  const replay = await (await browser.newContext()).newPage();
  await replay.goto(link);
  await expect(replay.getByText(/This link no longer works/)).toBeVisible();
  await expect(replay.getByLabel("New password")).toHaveCount(0);
  await replay.context().close();

  // A role change: the person's next page shows what the new role may use.
  await page.goto("/admin/users");
  const row = page.getByRole("row", { name: new RegExp(who.email) });
  await row.getByLabel(`Role of ${who.email}`, { exact: true }).selectOption({ label: "Specialist" });
  await row.getByRole("button", { name: "Change role" }).click();
  await expect(row.getByRole("status")).toHaveText("Now Specialist.");
  await person.goto("/ledger");
  await expect(person.getByRole("heading", { name: "Ledger", level: 1 })).toBeVisible();

  // Deactivation asks twice, then ends the person's session.
  await row.getByRole("button", { name: `Deactivate ${who.email}` }).click();
  await row.getByRole("button", { name: `Confirm deactivate ${who.email}` }).click();
  await expect(row).toContainText("Deactivated");
  await person.reload();
  await expect(person).toHaveURL(/\/signin/);
  await person.context().close();

  // Each change, in the audit trail, under the person's id.
  await page.goto(`/audit?action=user.`);
  for (const action of ["user.invited", "user.password_set", "user.role_changed", "user.deactivated"]) {
    await expect(page.getByRole("row", { name: new RegExp(action.replace(".", "\\.")) }).first()).toBeVisible();
  }
});

test("the only active admin cannot be deactivated or demoted", async ({ page, signInAs }) => {
  await signInAs("ADMIN");
  await page.goto("/admin/users");
  const me = page.getByRole("row", { name: new RegExp(ACCOUNTS.ADMIN.email) });
  await expect(me.getByRole("button", { name: `Deactivate ${ACCOUNTS.ADMIN.email}` })).toBeDisabled();
  // Demoting is refused by the server, which says why; the role stays.
  await me.getByLabel(`Role of ${ACCOUNTS.ADMIN.email}`, { exact: true }).selectOption({ label: "Lead" });
  await me.getByRole("button", { name: "Change role" }).click();
  await expect(me.getByRole("status")).toContainText("only active admin");
  await page.reload();
  await expect(page.getByRole("row", { name: new RegExp(ACCOUNTS.ADMIN.email) })).toContainText("Admin");
});

test("a refused addition keeps what was typed and says which field", async ({ page, signInAs }) => {
  await signInAs("ADMIN");
  await page.goto("/admin/users");
  const form = page.getByRole("form", { name: "Add a person" });
  await form.getByLabel("Email").fill(ACCOUNTS.REVIEWER.email);
  await form.getByLabel("Name").fill("Someone Twice");
  await form.getByRole("button", { name: "Add person" }).click();
  await expect(form).toContainText("already exists");
  await expect(form.getByLabel("Email")).toHaveValue(ACCOUNTS.REVIEWER.email);
  await expect(form.getByLabel("Name")).toHaveValue("Someone Twice");
});
