// What a browser is told about each page, and what a page of another origin can do with it.
// - Server actions: a call from a page of another origin is refused with 403 before Next runs it;
//   a same-origin call still works; a forged X-Forwarded-Host does not make a foreign origin pass.
// - Every page, for every role that may see it, carries an enforced nonce-based Content-Security-
//   Policy and the other security headers, Next's own scripts run under it (the app hydrates) and
//   Chromium reports no violation; a script injected without the nonce does not run.
// - No page can be framed, not even by another page of the same site.
import { createServer } from "node:http";
import type { APIRequestContext, Browser, Page, Response } from "@playwright/test";
import { ACCOUNTS, DEMO_PASSWORD, SignInPage, expect, test, type DemoRole } from "./fixtures";
import { captureAction, type TCapturedAction } from "./actions";

// ─── server actions and their origin ─────────────────────────────────────────────────────────────

type TCaptured = TCapturedAction;

/** The sign-in form's action call with empty fields (refused by the form's own check: no account is tried), held back before it reaches the server. */
async function captureSignInAction(page: Page): Promise<TCaptured> {
  await page.goto("/signin");
  return captureAction(page, () => page.getByRole("button", { name: "Sign in" }).click());
}

async function replay(request: APIRequestContext, captured: TCaptured, headers: Record<string, string | undefined>) {
  const merged = Object.fromEntries(
    Object.entries({ ...captured.headers, ...headers }).filter((e): e is [string, string] => e[1] !== undefined),
  );
  return request.post(captured.url, { headers: merged, data: captured.body, maxRedirects: 0 });
}

test.describe("server actions from another origin", () => {
  let captured: TCaptured;

  test.beforeAll(async ({ browser }) => {
    const page = await (await browser.newContext()).newPage();
    captured = await captureSignInAction(page);
    await page.context().close();
  });

  test("a same-origin call still runs the action", async ({ request, baseURL }) => {
    expect(captured.headers.origin).toBe(new URL(baseURL!).origin);
    const response = await replay(request, captured, {});
    expect(response.status()).toBe(200);
    // The form's own answer: the action ran.
    expect(await response.text()).toContain("Enter your email and password.");
  });

  test("a call from another origin is refused with 403, and the action does not run", async ({ request }) => {
    const response = await replay(request, captured, { origin: "http://evil.example" });
    expect(response.status()).toBe(403);
    expect(await response.json()).toMatchObject({ error: "error", code: "foreign_origin" });
    expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  });

  test("another port of the same host is another origin", async ({ request, baseURL }) => {
    const url = new URL(baseURL!);
    const response = await replay(request, captured, { origin: `${url.protocol}//${url.hostname}:${Number(url.port) + 1}` });
    expect(response.status()).toBe(403);
  });

  test("a forged X-Forwarded-Host does not make a foreign origin pass (no trusted proxy)", async ({ request }) => {
    // (A Host header of the attacker's own is no forgery: a browser sets Host to the server it
    // addresses and sends that server's cookies only. APP_URL pins even that.)
    for (const forged of [
      { "x-forwarded-host": "evil.example" },
      { "x-forwarded-host": "evil.example", "x-forwarded-proto": "http", forwarded: "host=evil.example" },
    ]) {
      const response = await replay(request, captured, { origin: "http://evil.example", ...forged });
      expect(response.status(), JSON.stringify(forged)).toBe(403);
    }
  });

  test("a call with no Origin, or the opaque one, is refused", async ({ request }) => {
    expect((await replay(request, captured, { origin: undefined })).status()).toBe(403);
    expect((await replay(request, captured, { origin: "null" })).status()).toBe(403);
  });

  test("a form posted without JavaScript from another origin is refused too", async ({ request }) => {
    // No Next-Action header: Next would find the action's id in the multipart body.
    const response = await replay(request, captured, { origin: "http://evil.example", "next-action": undefined, accept: "text/html" });
    expect(response.status()).toBe(403);
  });

  test("an action posted to a path that looks like a file is held to the same rule: without Origin, 403", async ({ browser, baseURL }) => {
    // /tickets/x.png is the ticket page's path (/tickets/[id]) to Next, which runs the page's actions
    // there; the proxy's matcher once left such paths out as static files, and the origin rule with them.
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, "REVIEWER");
    await page.goto("/tickets/new");
    await page.getByLabel("Customer email").fill("dana@example.com");
    await page.getByLabel("Subject").fill(`A path like a file ${Date.now()}`);
    await page.getByLabel("Message").fill("Please refund order ORD-1001, it arrived broken.");
    await page.getByRole("button", { name: "Create ticket" }).click();
    await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
    const call = await captureAction(page, () => page.getByRole("button", { name: "Run in simulate mode" }).click());
    // Made harmless: a ticket that does not exist, so the action, where it runs, answers not_found.
    const body = Buffer.from(
      call.body
        .toString("utf8")
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, "00000000-0000-4000-8000-00000000acce"),
    );
    const send = (path: string, headers: Record<string, string>) =>
      context.request.post(`${baseURL}${path}`, {
        headers: { "content-type": call.headers["content-type"]!, accept: "text/x-component", ...headers },
        data: body,
        maxRedirects: 0,
      });
    const action = { "next-action": call.headers["next-action"]! };
    // Control: from the app's own origin the action runs at such a path (its own answer, not_found).
    const own = await send("/tickets/x.png", { ...action, origin: new URL(baseURL!).origin });
    expect(own.status()).toBe(200);
    expect(await own.text()).toContain("not_found");
    for (const path of ["/tickets/x.png", "/tickets/x.svg", "/tickets/x.woff2", "/tickets/x.js.map", "/tickets/x.txt"]) {
      const refused = await send(path, action);
      expect(refused.status(), path).toBe(403);
      expect(await refused.json(), path).toMatchObject({ error: "error", code: "foreign_origin" });
      expect((await send(path, { ...action, origin: "http://evil.example" })).status(), path).toBe(403);
      // Posted as a form without JavaScript (no Next-Action header: the id is in the body).
      expect((await send(path, { origin: "http://evil.example", accept: "text/html" })).status(), path).toBe(403);
    }
    await context.close();
  });

  test("a signed-in reviewer's cookie does not help a foreign page: the ticket is not created", async ({ browser, baseURL }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, "REVIEWER");
    await page.goto("/tickets/new");
    const subject = `Forged from another origin ${Date.now()}`;
    await page.getByLabel("Customer email").fill("dana@example.com");
    await page.getByLabel("Subject").fill(subject);
    await page.getByLabel("Message").fill("Please refund order ORD-1001, it arrived broken.");
    const call = await captureAction(page, () => page.getByRole("button", { name: "Create ticket" }).click());
    const send = (origin: string) =>
      context.request.post(call.url, {
        headers: {
          "next-action": call.headers["next-action"]!,
          "content-type": call.headers["content-type"]!,
          accept: "text/x-component",
          origin,
        },
        data: call.body,
        maxRedirects: 0,
      });
    const queueText = async () => (await context.request.get(`${baseURL}/api/queue?status=all`)).text();

    expect((await send("http://evil.example")).status()).toBe(403);
    expect(await queueText()).not.toContain(subject);
    // The very same call from the app's own origin creates the ticket: the refusal was the origin's.
    const own = await send(new URL(baseURL!).origin);
    expect(own.headers()["x-action-redirect"]).toMatch(/^\/tickets\/[0-9a-f-]{36}/);
    expect(await queueText()).toContain(subject);
    await context.close();
  });
});

// ─── headers and the policy on every page ────────────────────────────────────────────────────────

type TVisitor = DemoRole | "SIGNED_OUT";

/** Every page, and who may open it (the others get the 403 page, visited too). */
const PAGES: { path: string; who: readonly TVisitor[] }[] = [
  { path: "/signin", who: ["SIGNED_OUT"] },
  { path: "/set-password/not-a-link", who: ["SIGNED_OUT", "REVIEWER", "SPECIALIST", "LEAD", "ADMIN"] },
  { path: "/", who: ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"] },
  { path: "/tickets/new", who: ["REVIEWER", "SPECIALIST", "ADMIN"] },
  { path: "/tickets/e2e-laptop", who: ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"] },
  { path: "/tickets/e2e-trace/compare", who: ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"] },
  { path: "/documents/return-policy-us/2", who: ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"] },
  { path: "/ledger", who: ["SPECIALIST", "LEAD", "ADMIN"] },
  { path: "/audit", who: ["LEAD", "ADMIN"] },
  { path: "/approvals/batch", who: ["REVIEWER", "SPECIALIST", "ADMIN"] },
  { path: "/evals", who: ["LEAD", "ADMIN"] },
  { path: "/evals/:first", who: ["LEAD", "ADMIN"] },
  { path: "/autonomy", who: ["LEAD", "ADMIN"] },
  { path: "/admin", who: ["ADMIN"] },
  { path: "/admin/users", who: ["ADMIN"] },
  { path: "/admin/jobs", who: ["ADMIN"] },
  { path: "/admin/jobs?view=failed", who: ["ADMIN"] },
  { path: "/no-such-page", who: ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"] },
];

async function signIn(page: Page, role: DemoRole) {
  const signInPage = new SignInPage(page);
  await signInPage.goto();
  await signInPage.signIn(ACCOUNTS[role].email, DEMO_PASSWORD);
  await expect(page.getByRole("heading", { name: "Queue", level: 1 })).toBeVisible();
}

/** Collects CSP violations the page reports (its event) and the console's CSP errors, from the first byte. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) console.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
  return async () => [...console, ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []))];
}

function expectSecurityHeaders(response: Response | null, path: string) {
  expect(response, path).not.toBeNull();
  const headers = response!.headers();
  const policy = headers["content-security-policy"];
  expect(policy, `${path}: Content-Security-Policy`).toBeTruthy();
  expect(headers["content-security-policy-report-only"], path).toBeUndefined();
  const scriptSrc = policy!
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith("script-src "))!;
  expect(scriptSrc, path).toMatch(/'nonce-[A-Za-z0-9+/]+={0,2}'/);
  expect(scriptSrc, path).not.toContain("unsafe-inline");
  expect(scriptSrc, path).not.toContain("unsafe-eval");
  expect(policy, path).toContain("frame-ancestors 'none'");
  expect(headers["x-content-type-options"], path).toBe("nosniff");
  expect(headers["referrer-policy"], path).toBe("same-origin");
  expect(headers["permissions-policy"], path).toContain("camera=()");
  expect(headers["x-frame-options"], path).toBe("DENY");
  // Served over plain http with no trusted proxy: no HSTS.
  expect(headers["strict-transport-security"], path).toBeUndefined();
  return policy!;
}

async function visitAll(browser: Browser, visitor: TVisitor) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = await watchViolations(page);
  if (visitor !== "SIGNED_OUT") await signIn(page, visitor);
  let firstEvalRun: string | null = null;
  const nonces = new Set<string>();
  let visits = 0;
  for (const { path, who } of PAGES) {
    let target = path;
    if (path === "/evals/:first") {
      if (!firstEvalRun) continue;
      target = firstEvalRun;
    }
    // Signed out, only the open pages; signed in, every page but the sign-in form (which sends them on).
    if (visitor === "SIGNED_OUT" ? !who.includes("SIGNED_OUT") : path === "/signin") continue;
    const response = await page.goto(target);
    visits += 1;
    const policy = expectSecurityHeaders(response, target);
    nonces.add(/'nonce-([^']+)'/.exec(policy)![1]!);
    const allowed = (who as readonly TVisitor[]).includes(visitor);
    expect(response!.status(), `${visitor} ${target}`).toBe(path === "/no-such-page" ? 404 : allowed ? 200 : 403);
    // Next's own scripts ran under the policy: the app router started on this page.
    await page.waitForFunction(() => typeof (window as unknown as { next?: { version?: string } }).next?.version === "string");
    if (path === "/evals" && allowed)
      firstEvalRun = await page.getByRole("table", { name: "Eval runs, newest first" }).getByRole("link").first().getAttribute("href");
    expect(await violations(), `${visitor} ${target}`).toEqual([]);
  }
  // A fresh nonce for every response.
  expect(nonces.size).toBe(visits);
  await context.close();
}

for (const visitor of ["SIGNED_OUT", "REVIEWER", "SPECIALIST", "LEAD", "ADMIN"] as const) {
  test(`every page ${visitor === "SIGNED_OUT" ? "a signed-out visitor" : `a ${visitor.toLowerCase()}`} opens carries the headers and runs with no CSP violation`, async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    await visitAll(browser, visitor);
  });
}

test("a script injected into a page without the nonce does not run, and the browser reports it", async ({ page, signInAs }) => {
  await signInAs("REVIEWER");
  const violations = await watchViolations(page);
  // What a stored XSS would put into the HTML the server sends: an inline script, an external one and
  // an inline event handler, none with the nonce. The response is the server's own, headers and all.
  // (A script element created by code already running is another matter: 'strict-dynamic' trusts the
  // page's own scripts to load more, and code that can call createElement has already won.)
  await page.route("**/tickets/e2e-laptop", async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(
      "</body>",
      `<script>window.__injectedInline = true</script><script src="/api/health?as-script"></script><img alt="" src="data:image/png;base64,AAAA" onerror="window.__injectedHandler = true"></body>`,
    );
    await route.fulfill({ response, body: html });
  });
  await page.goto("/tickets/e2e-laptop");
  // The page's own scripts still run: the app router started.
  await page.waitForFunction(() => typeof (window as unknown as { next?: { version?: string } }).next?.version === "string");
  await expect.poll(async () => (await violations()).length).toBeGreaterThanOrEqual(3);
  const ran = await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    return { inline: w.__injectedInline === true, handler: w.__injectedHandler === true };
  });
  expect(ran).toEqual({ inline: false, handler: false });
  const reported = await violations();
  expect(reported.filter((v) => v.startsWith("script-src-elem")).length, reported.join("\n")).toBeGreaterThanOrEqual(2);
  expect(
    reported.some((v) => v.startsWith("script-src-attr")),
    reported.join("\n"),
  ).toBe(true);
});

test("a page of the same site cannot frame the ticket page", async ({ page, signInAs, baseURL }) => {
  await signInAs("REVIEWER");
  await page.goto("/tickets/e2e-laptop");
  // (Its heading, not "Run agent": the approvals spec may have resolved this ticket already.)
  await expect(page.getByRole("heading", { level: 1, name: /Laptop arrived with a cracked screen/ })).toBeVisible();
  const ticketUrl = page.url();
  // A real page on another port of the same host: the same site, so the session cookie goes with the
  // frame's request, and Chromium treats it as a local page like the app.
  const url = new URL(baseURL!);
  const framer = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<!doctype html><iframe name="target" src="${ticketUrl}" width="800" height="600"></iframe>`);
  });
  await new Promise<void>((resolve) => framer.listen(Number(url.port) + 5, url.hostname, resolve));
  try {
    const framed = page.waitForResponse(ticketUrl);
    await page.goto(`${url.protocol}//${url.hostname}:${Number(url.port) + 5}/`);
    // The ticket page itself was served to the frame, with the session…
    expect((await framed).status()).toBe(200);
    const frame = page.frame({ name: "target" })!;
    // …and refused by frame-ancestors: the frame holds Chromium's error page, never the ticket.
    await expect.poll(() => frame.url()).toMatch(/^chrome-error:/);
    await expect(frame.getByRole("button")).toHaveCount(0);
  } finally {
    await new Promise((resolve) => framer.close(resolve));
  }
});

test("responses the proxy never sees still carry the other headers", async ({ page, request, signInAs }) => {
  await signInAs("REVIEWER");
  const script = await page.locator("script[src*='/_next/static/']").first().getAttribute("src");
  for (const path of [script!, "/icon.svg", "/api/health"]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const headers = response.headers();
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("same-origin");
    expect(headers["x-frame-options"], path).toBe("DENY");
  }
});

test("a client's own X-Forwarded-Proto: https does not turn HSTS on (no trusted proxy)", async ({ request }) => {
  const response = await request.get("/signin", { headers: { "x-forwarded-proto": "https" } });
  expect(response.headers()["strict-transport-security"]).toBeUndefined();
  expect(response.headers()["content-security-policy"]).not.toContain("upgrade-insecure-requests");
});
