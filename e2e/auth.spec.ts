import { ACCOUNTS, DEMO_PASSWORD, expect, test, type DemoRole } from "./fixtures";

// What each role's navigation offers, from the roles table (lib/contracts/roles.ts).
const NAV: Record<DemoRole, { shows: string[]; hides: string[] }> = {
  REVIEWER: { shows: ["Queue", "New ticket", "Policies", "Annotations"], hides: ["Ledger", "Audit", "Evaluations", "Autonomy", "Admin"] },
  SPECIALIST: { shows: ["Queue", "New ticket", "Ledger", "Policies"], hides: ["Audit", "Evaluations", "Autonomy", "Admin"] },
  LEAD: { shows: ["Queue", "Ledger", "Policies", "Audit", "Evaluations", "Autonomy"], hides: ["Admin"] },
  ADMIN: { shows: ["Queue", "Ledger", "Policies", "Audit", "Evaluations", "Autonomy", "Admin"], hides: [] },
};

for (const role of Object.keys(ACCOUNTS) as DemoRole[]) {
  test(`${role.toLowerCase()} signs in and sees the navigation of the role`, async ({ page, signInAs }) => {
    await signInAs(role);
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const name of NAV[role].shows) await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    for (const name of NAV[role].hides) await expect(nav.getByRole("link", { name, exact: true })).toHaveCount(0);
    await page.getByRole("button", { name: new RegExp(ACCOUNTS[role].name) }).click();
    await expect(page.getByRole("menu")).toContainText(ACCOUNTS[role].email);
  });
}

test("a wrong password shows an error and signs nobody in", async ({ page, signInPage }) => {
  await signInPage.goto();
  await signInPage.signIn(ACCOUNTS.REVIEWER.email, "not-the-password");
  await expect(page.getByText("That email and password do not match an active account.")).toBeVisible();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin/);
});

test("a signed-out visit is sent to sign-in, and back afterwards", async ({ page, signInPage }) => {
  await page.goto("/ledger");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await signInPage.signIn(ACCOUNTS.SPECIALIST.email, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/ledger$/);
  await expect(page.getByRole("heading", { name: "Ledger", level: 1 })).toBeVisible();
});

test("a role that may not open a page gets 403", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  const response = await page.goto("/audit");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: /403/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Audit", level: 1 })).toHaveCount(0);
});

test("signing out ends the session", async ({ page, signInAs }) => {
  await signInAs("LEAD");
  await page.getByRole("button", { name: /Lee Lead/ }).click();
  await page.getByRole("menuitem", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto("/evals");
  await expect(page).toHaveURL(/\/signin/);
});

test("the health check is public and reports current migrations", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ ok: true, database: { reachable: true }, migrations: { current: true, pending: [] } });
});
