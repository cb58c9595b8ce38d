// Shared Playwright fixtures: the demo accounts and a page object for signing in through the real
// form (no cookies forged, no API shortcuts). Each role signs in through the form once per worker;
// its session cookie is then reused (signed-in state per role) for as long as the server still
// honours it: a test that signs the person out, or ends their sessions, makes the next one sign in
// through the form again.
import { createHmac, randomUUID } from "node:crypto";
import { e2ePort } from "../testing/e2e-data-dir";
import { test as base, expect, type APIRequestContext, type Browser, type BrowserContext, type Cookie, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "countersign-demo";
export const ACCOUNTS = {
  REVIEWER: { email: "reviewer@example.com", name: "Riley Reviewer" },
  SPECIALIST: { email: "specialist@example.com", name: "Sam Specialist" },
  LEAD: { email: "lead@example.com", name: "Lee Lead" },
  ADMIN: { email: "admin@example.com", name: "Ada Admin" },
} as const;
export type DemoRole = keyof typeof ACCOUNTS;

export class SignInPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto("/signin");
  }

  async signIn(email: string, password: string) {
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }
}

/** The session cookies each role signed in with, while the server still honours them. */
const storedSessions = new Map<DemoRole, Cookie[]>();

const queueHeading = (page: Page) => page.getByRole("heading", { name: "Queue", level: 1 });

/**
 * Signs `page`'s browser context in as `role`, landing on the queue: with the role's stored session
 * when the server still honours it, otherwise through the real form (and stores the new session).
 */
async function signInContext(page: Page, role: DemoRole): Promise<void> {
  const stored = storedSessions.get(role);
  if (stored) {
    await page.context().addCookies(stored);
    await page.goto("/");
    if (!new URL(page.url()).pathname.startsWith("/signin")) {
      await expect(queueHeading(page)).toBeVisible();
      return;
    }
    storedSessions.delete(role);
    await page.context().clearCookies();
  }
  const signInPage = new SignInPage(page);
  await signInPage.goto();
  await signInPage.signIn(ACCOUNTS[role].email, DEMO_PASSWORD);
  await expect(queueHeading(page)).toBeVisible();
  storedSessions.set(role, await page.context().cookies());
}

export const test = base.extend<{ signInPage: SignInPage; signInAs: (role: DemoRole) => Promise<void> }>({
  // This worker's shard: its own server (playwright.config.ts, testing/e2e-data-dir.ts).
  baseURL: async ({}, use) => {
    await use(`http://127.0.0.1:${e2ePort()}`);
  },
  signInPage: async ({ page }, use) => {
    await use(new SignInPage(page));
  },
  signInAs: async ({ page }, use) => {
    await use((role) => signInContext(page, role));
  },
});

export { expect };

/** The secrets scripts/e2e-server.ts gives the server under test. */
export const E2E_INTAKE_SECRET = "e2e-only-intake-secret-0123456789abcdef012";
export const E2E_BUNDLE_KEY = "e2e-only-bundle-key-0123456789abcdef012345";

/**
 * Standard Webhooks headers for an intake delivery, signed by hand as a helpdesk would:
 * v1,base64(HMAC-SHA256(secret, "<webhook-id>.<webhook-timestamp>.<raw body>")).
 */
export function webhookHeaders(
  raw: string | Buffer,
  options: { secret?: string; id?: string; timestamp?: number } = {},
): Record<string, string> {
  const id = options.id ?? `msg_${randomUUID()}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const signature = createHmac("sha256", options.secret ?? E2E_INTAKE_SECRET)
    .update(`${id}.${timestamp}.`)
    .update(raw)
    .digest("base64");
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": `v1,${signature}`,
  };
}

/**
 * Delivers a ticket through the signed intake API, as the helpdesk does: routed by the pinned
 * bundle, the route signed with its key. Answers the new ticket's id and number.
 */
export async function deliverTicket(
  request: APIRequestContext,
  input: { subject: string; body: string; route?: "guarded_agent" | "human_review_now"; customerEmail?: string; orderId?: string },
): Promise<{ ticketId: string; number: number; status: string }> {
  const externalId = `e2e-delivered-${randomUUID()}`;
  const route = input.route ?? "guarded_agent";
  const bundleVersion = "intake-rules-2026.11";
  const routeSignature = createHmac("sha256", E2E_BUNDLE_KEY).update(`${externalId}\n${route}\n${bundleVersion}`).digest("hex");
  const raw = JSON.stringify({
    externalId,
    subject: input.subject,
    body: input.body,
    customerEmail: input.customerEmail ?? "priya.nair@example.net",
    orderId: input.orderId ?? "ORD-1004",
    route,
    bundleVersion,
    routeSignature,
  });
  const response = await request.post("/api/intake/tickets", { data: Buffer.from(raw), headers: webhookHeaders(raw) });
  expect(response.status()).toBe(201);
  return response.json() as Promise<{ ticketId: string; number: number; status: string }>;
}

/** A page of its own browser context, signed in as `role`: a second person beside the test's page. */
export async function signedInPage(browser: Browser, role: DemoRole): Promise<Page> {
  const context: BrowserContext = await browser.newContext();
  const page = await context.newPage();
  await signInContext(page, role);
  return page;
}

/** An admin changes a policy setting (the daily cap, by one): every request waiting now goes stale. */
export async function changePolicy(browser: Browser): Promise<void> {
  const admin = await signedInPage(browser, "ADMIN");
  await admin.goto("/admin");
  const cap = admin.getByLabel(/daily cap/i);
  await cap.fill(String(Number(await cap.inputValue()) + 1));
  await admin.getByRole("button", { name: "Save settings" }).click();
  await expect(admin.getByTestId("settings-message")).toContainText(/^Saved:/);
  await admin.context().close();
}
