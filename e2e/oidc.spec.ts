// Sign-in through the identity provider in the browser, against the real OpenID Connect provider the
// e2e server starts two ports after the app's (testing/oidc-provider.ts): an invited person lands
// with the role their groups map to and loses it when a group is taken away; an admin who requires
// SSO keeps a break-glass admin who still signs in with a password, and cannot name none.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { e2ePort } from "../testing/e2e-data-dir";
import { ACCOUNTS, DEMO_PASSWORD, expect, SignInPage, test } from "./fixtures";

const PROVIDER = `http://127.0.0.1:${e2ePort() + 2}`;

/** Sets a person at the provider (their groups, their email) through its control endpoint. */
async function setPerson(login: string, person: { sub: string; email: string; name: string; groups: string[] }) {
  const response = await fetch(`${PROVIDER}/__people/${encodeURIComponent(login)}`, {
    method: "PUT",
    body: JSON.stringify({ ...person, email_verified: true }),
  });
  expect(response.status).toBe(204);
}

/** From the app's sign-in page, through the provider's own page, back to the app. */
async function signInThroughProvider(page: Page, login: string) {
  await page.goto("/signin");
  await page.getByRole("button", { name: "Continue with the local provider" }).click();
  await page.getByLabel("Login").fill(login);
  await page.getByRole("button", { name: "Continue" }).click();
}

// The app is served at 127.0.0.1, as a person trying it out locally serves it: Next rewrites that
// host to "localhost" in the URL its route handlers see, which once made the code exchange's
// redirect URI differ from the one the sign-in button sent (the provider refused the code).
test("an invited person signs in through the provider with their groups' role, and loses it when a group is taken away", async ({
  page,
  browser,
  signInAs,
}) => {
  const login = `nova-${randomUUID().slice(0, 8)}`;
  const email = `${login}@example.com`;
  await signInAs("ADMIN");
  await page.goto("/admin/users");
  const form = page.getByRole("form", { name: "Add a person" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Name").fill("Nova Newcomer");
  await form.getByRole("button", { name: "Add person" }).click();
  // Invited: a set-password link they never use; the provider is how they sign in.
  await expect(page.getByRole("textbox", { name: `Set-password link for ${email}` })).toBeVisible();

  await setPerson(login, { sub: `sub-${login}`, email, name: "Nova Newcomer", groups: ["countersign-leads", "countersign-reviewers"] });
  const context = await browser.newContext();
  const nova = await context.newPage();
  await signInThroughProvider(nova, login);
  await expect(nova.getByRole("heading", { name: "Queue", level: 1 })).toBeVisible();
  await expect(nova.getByRole("button", { name: /^Account: Nova Newcomer\s*,\s*Lead$/ })).toBeVisible();

  // Taken out of the leads group at the provider: at the next sign-in, a reviewer, in every session.
  await setPerson(login, { sub: `sub-${login}`, email, name: "Nova Newcomer", groups: ["countersign-reviewers"] });
  const later = await (await browser.newContext()).newPage();
  await signInThroughProvider(later, login);
  await expect(later.getByRole("button", { name: /^Account: Nova Newcomer\s*,\s*Reviewer$/ })).toBeVisible();
  const refused = await nova.goto("/audit");
  expect(refused?.status()).toBe(403);
  await context.close();
  await later.context().close();
});

test("an admin who requires SSO keeps the break-glass admin's password and role, and cannot name no one", async ({
  page,
  browser,
  signInAs,
}) => {
  await signInAs("ADMIN");
  await page.goto("/admin/sign-in");
  const requireSso = page.getByLabel("Require sign-in through the identity provider for everyone but the break-glass admin");
  const breakGlass = page.getByLabel("Break-glass admin (keeps their password)");
  const save = page.getByRole("button", { name: "Save sign-in settings" });

  // No break-glass admin: refused, nothing saved.
  await requireSso.check();
  await breakGlass.selectOption("");
  await save.click();
  await expect(page.getByRole("status").filter({ hasText: "name an active admin" })).toBeVisible();

  try {
    // The refused save reset the form (React resets a form after its action): check it again.
    await requireSso.check();
    await breakGlass.selectOption({ label: `${ACCOUNTS.ADMIN.name} (${ACCOUNTS.ADMIN.email})` });
    await save.click();
    await expect(page.getByRole("status").filter({ hasText: "Saved: everyone but the break-glass admin" })).toBeVisible();

    // The break-glass admin stays an admin while the requirement holds: the server refuses, saying why.
    await page.goto("/admin/users");
    const me = page.getByRole("row", { name: new RegExp(ACCOUNTS.ADMIN.email) });
    await me.getByLabel(`Role of ${ACCOUNTS.ADMIN.email}`, { exact: true }).selectOption({ label: "Lead" });
    await me.getByRole("button", { name: "Change role" }).click();
    await expect(me.getByRole("status")).toContainText("This is the break-glass admin");

    // Anyone else's right password is turned to the provider…
    const reviewer = new SignInPage(await (await browser.newContext()).newPage());
    await reviewer.goto();
    await reviewer.signIn(ACCOUNTS.REVIEWER.email, DEMO_PASSWORD);
    await expect(reviewer.page.getByText("This account signs in through your identity provider")).toBeVisible();
    await reviewer.page.context().close();

    // …while the break-glass admin still signs in with theirs.
    const admin = new SignInPage(await (await browser.newContext()).newPage());
    await admin.goto();
    await admin.signIn(ACCOUNTS.ADMIN.email, DEMO_PASSWORD);
    await expect(admin.page.getByRole("heading", { name: "Queue", level: 1 })).toBeVisible();
    await admin.page.context().close();
  } finally {
    // The rest of the suite signs in with passwords.
    await page.goto("/admin/sign-in");
    await requireSso.uncheck();
    await save.click();
    await expect(page.getByRole("status").filter({ hasText: /^Saved\.$/ })).toBeVisible();
  }
});

test("the sign-in page's provider button and the sign-in settings page, at phone and desktop widths", async ({
  page,
  browser,
  signInAs,
}, info) => {
  for (const width of [390, 1440]) {
    const visitor = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
    await visitor.goto("/signin");
    await expect(visitor.getByRole("button", { name: "Continue with the local provider" })).toBeVisible();
    await visitor.screenshot({ path: info.outputPath(`signin-${width}.png`), fullPage: true });
    await visitor.context().close();
  }
  await signInAs("ADMIN");
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/sign-in");
    await expect(page.getByRole("heading", { name: "Sign-in", level: 1 })).toBeVisible();
    await page.screenshot({ path: info.outputPath(`admin-sign-in-${width}.png`), fullPage: true });
  }
});
