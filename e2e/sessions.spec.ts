// Sessions that end, as an attacker holding a copy of the cookie sees them: after sign-out the copy
// is refused by a page, the API routes and a server action; "sign out everywhere" ends the person's
// other browsers; an admin signs a person out everywhere from the users table.
import type { APIRequestContext, Browser, BrowserContext, Cookie, Page } from "@playwright/test";
import { ACCOUNTS, DEMO_PASSWORD, SignInPage, expect, test, type DemoRole } from "./fixtures";
import { captureAction, type TCapturedAction } from "./actions";

/** The action's answer in its RSC response: the row that is a result object with a status. */
async function replayAction(request: APIRequestContext, action: TCapturedAction, cookie: string): Promise<Record<string, unknown> | null> {
  const response = await request.post(action.url, { headers: { ...action.headers, cookie }, data: action.body, maxRedirects: 0 });
  expect(response.status()).toBe(200);
  for (const line of (await response.text()).split("\n")) {
    const row = /^[0-9a-f]+:(\{.*\})$/.exec(line);
    if (!row) continue;
    const value = JSON.parse(row[1]!) as Record<string, unknown>;
    if (typeof value.status === "string") return value;
  }
  return null;
}

const cookieHeader = (cookies: Cookie[]) => cookies.map((c) => `${c.name}=${c.value}`).join("; ");
const sessionCookies = (cookies: Cookie[]) => cookies.filter((c) => c.name.includes("session-token"));

async function signedInContext(browser: Browser, role: DemoRole): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const signInPage = new SignInPage(page);
  await signInPage.goto();
  await signInPage.signIn(ACCOUNTS[role].email, DEMO_PASSWORD);
  await expect(page.getByRole("heading", { name: "Queue", level: 1 })).toBeVisible();
  return { context, page };
}

async function openUserMenu(page: Page, role: DemoRole) {
  await page.getByRole("button", { name: new RegExp(ACCOUNTS[role].name) }).click();
}

/** A browser that has only the given cookies: a page visit as the cookie's thief makes it. */
async function visitWith(browser: Browser, cookies: Cookie[], path: string): Promise<Page> {
  const context = await browser.newContext();
  await context.addCookies(cookies);
  const page = await context.newPage();
  await page.goto(path);
  return page;
}

test("a session cookie kept from before sign-out is refused by a page, /api/queue, /api/ledger/export and a server action", async ({
  browser,
  page,
  signInAs,
  request,
}) => {
  await signInAs("SPECIALIST");
  const kept = sessionCookies(await page.context().cookies());
  expect(kept.length).toBeGreaterThan(0);
  const cookie = cookieHeader(kept);

  // A server action the specialist may call, made harmless: an email that does not validate.
  await page.goto("/tickets/new");
  await page.getByLabel("Customer email").fill("not-an-email");
  await page.getByLabel("Subject").fill("Sessions: replayed after sign-out");
  await page.getByLabel("Message").fill("Does a copied cookie still work?");
  await page.getByLabel("Order number").fill("ORD-1004");
  const createTicket = await captureAction(page, () => page.getByRole("button", { name: "Create ticket" }).click());

  // The control: before sign-out the kept cookie opens everything.
  const before = await visitWith(browser, kept, "/ledger");
  await expect(before.getByRole("heading", { name: "Ledger", level: 1 })).toBeVisible();
  await before.context().close();
  expect((await request.get("/api/queue", { headers: { cookie } })).status()).toBe(200);
  expect((await request.get("/api/ledger/export", { headers: { cookie } })).status()).toBe(200);
  expect(await replayAction(request, createTicket, cookie)).toMatchObject({ status: "invalid" });

  await page.goto("/");
  await openUserMenu(page, "SPECIALIST");
  await page.getByRole("menuitem", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/signin/);

  // The replay: the same cookie, from another browser and over plain HTTP.
  const after = await visitWith(browser, kept, "/ledger");
  await expect(after).toHaveURL(/\/signin/);
  await expect(after.getByRole("heading", { name: "Ledger", level: 1 })).toHaveCount(0);
  await after.context().close();
  for (const path of ["/api/queue", "/api/ledger/export"]) {
    const response = await request.get(path, { headers: { cookie } });
    expect(response.status(), path).toBe(401);
    expect(await response.json()).toMatchObject({ error: "unauthenticated" });
  }
  expect(await replayAction(request, createTicket, cookie)).toEqual({ status: "unauthenticated" });
  // next-auth's own session endpoint agrees, and clears the cookie (its clearing comes last, after
  // the proxy's re-encryption of the same revoked session, which counts for nothing either way).
  const session = await request.get("/api/auth/session", { headers: { cookie } });
  expect(await session.json()).toBeNull();
  expect(
    (session.headers()["set-cookie"] ?? "")
      .split("\n")
      .filter((c) => c.includes("session-token="))
      .pop(),
  ).toMatch(/session-token=; Max-Age=0/);
});

test("sign out everywhere ends the person's session in a second browser, and nobody else's", async ({ browser }) => {
  const first = await signedInContext(browser, "REVIEWER");
  const second = await signedInContext(browser, "REVIEWER");
  const someoneElse = await signedInContext(browser, "LEAD");
  const secondCookie = cookieHeader(sessionCookies(await second.context.cookies()));

  await openUserMenu(first.page, "REVIEWER");
  await first.page.getByRole("menuitem", { name: "Sign out everywhere" }).click();
  await expect(first.page).toHaveURL(/\/signin/);

  // The second browser still holds its cookie, and it counts for nothing.
  await second.page.reload();
  await expect(second.page).toHaveURL(/\/signin/);
  const queue = await second.context.request.get("/api/queue", { headers: { cookie: secondCookie } });
  expect(queue.status()).toBe(401);

  await someoneElse.page.reload();
  await expect(someoneElse.page.getByRole("heading", { name: "Queue", level: 1 })).toBeVisible();

  // Signing in again gives a fresh session that counts.
  const again = new SignInPage(second.page);
  await again.signIn(ACCOUNTS.REVIEWER.email, DEMO_PASSWORD);
  await expect(second.page.getByRole("heading", { name: "Queue", level: 1 })).toBeVisible();
  for (const c of [first, second, someoneElse]) await c.context.close();
});

test("an admin signs a person out everywhere from the users table", async ({ browser, page, signInAs }) => {
  const reviewer = await signedInContext(browser, "REVIEWER");
  await signInAs("ADMIN");
  await page.goto("/admin/users");
  const row = page.getByRole("row", { name: new RegExp(ACCOUNTS.REVIEWER.email) });
  const signOut = row.getByRole("button", { name: `Sign out ${ACCOUNTS.REVIEWER.email} everywhere` });
  await expect(signOut).toBeEnabled();
  await signOut.click();
  await expect(row.getByRole("status")).toHaveText(/^\d+ sessions? ended\.$/);
  // The page shows the count after the revocation, and offers nothing more to end.
  await expect(row.getByTestId("live-sessions")).toHaveText("0");
  await expect(signOut).toBeDisabled();

  await reviewer.page.reload();
  await expect(reviewer.page).toHaveURL(/\/signin/);
  // The admin's own session is untouched.
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Admin", level: 1 })).toBeVisible();
  await reviewer.context.close();
});
