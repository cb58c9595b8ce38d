// Layouts that hold from a 320 px phone to a wide screen: no page scrolls sideways, no list cell
// spills over its neighbour, a long word wraps, the trace reads as a list of cards on a phone, and
// a ticket offers only the actions that apply to it. With SCREENSHOTS=1 every page is also saved,
// full length, at each width in the test's output folder (test-results/), for a person to look at.
import type { Page } from "@playwright/test";
import { navItemsFor } from "../lib/auth/nav";
import { ACCOUNTS, DEMO_PASSWORD, deliverTicket, expect, test, type DemoRole } from "./fixtures";
import { ROLES } from "./scans";

const WIDTHS = [320, 390, 1440] as const;
/** A word no line can hold: a pasted token, a URL without spaces. */
const LONG_WORD = `refund${"x".repeat(294)}`;

/** How far the page reaches past the viewport, in CSS pixels (0 when it does not scroll sideways). */
async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Cells of the page's lists whose text runs out of them (a card's two columns are narrow on a
 * phone, and a cell that does not wrap spills over its neighbour without widening the page). */
async function spillingCells(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("main tbody td, main tbody th")]
      .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
      .map((cell) => (cell.textContent ?? "").slice(0, 60)),
  );
}

async function screenshot(page: Page, name: string, fullPage = true) {
  if (!process.env.SCREENSHOTS) return;
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage });
}

const runButtons = (page: Page) => page.getByRole("button", { name: /^(Run agent|Run in simulate mode)$/ });

const TRACE = /^Trace of the run of /;

/** The layout scenario's ticket (prisma/seed/e2e.ts) with a live run approved: a trace on its page
 * and a row in the ledger. Done once; a second call finds it done. */
async function approvedLayoutTicket(page: Page) {
  await page.goto("/tickets/e2e-layout");
  if (await page.getByText(/^Ledger: /).count()) return;
  await page.getByRole("button", { name: "Run agent" }).click();
  const decision = page.getByRole("form", { name: "Decision" });
  await expect(decision.getByRole("button", { name: "Approve" })).toBeEnabled({ timeout: 20_000 });
  await decision.getByRole("button", { name: "Approve" }).click();
  await expect(async () => {
    await page.reload();
    await expect(page.getByText(/^Ledger: /)).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

test.describe("no page scrolls sideways", () => {
  let longWordTicket: number;

  test.beforeAll(async ({ browser, request }) => {
    ({ number: longWordTicket } = await deliverTicket(request, {
      subject: LONG_WORD,
      body: `The speaker from order ORD-1004 crackles. Reference: ${LONG_WORD}`,
    }));
    const page = await (await browser.newContext()).newPage();
    await page.goto("/signin");
    await page.getByLabel("Email").fill(ACCOUNTS.SPECIALIST.email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Queue", level: 1 })).toBeVisible();
    await approvedLayoutTicket(page);
    await page.context().close();
  });

  for (const width of WIDTHS) {
    test(`at ${width} px: the queue, a ticket with a 300-character word, a ticket with a trace, the ledger, the audit trail and the policies`, async ({
      page,
      signInAs,
    }) => {
      // Ten pages, the queue and the audit trail as long as the whole suite has made them: on a busy
      // machine that is more than the default 30 s.
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: 900 });
      await signInAs("ADMIN");
      for (const [name, path] of [
        ["queue", "/?status=all"],
        ["ticket-long-word", `/tickets/${longWordTicket}`],
        ["ticket-trace", "/tickets/e2e-layout"],
        ["ledger", "/ledger"],
        ["audit", "/audit"],
        ["documents", "/documents"],
        ["document", "/documents/return-policy-us"],
        ["document-version", "/documents/return-policy-us/2"],
        ["document-edit", "/documents/return-policy-us/2/edit"],
        ["document-diff", "/documents/return-policy-us/diff"],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        expect(await sidewaysOverflow(page), `${path} at ${width} px`).toBe(0);
        expect(await spillingCells(page), `${path} at ${width} px`).toEqual([]);
        await screenshot(page, `${name}-${width}`);
      }
    });
  }
});

test("at 320 px a ticket's run buttons are on screen, and its long words wrap inside it", async ({ page, signInAs, request }) => {
  const { number } = await deliverTicket(request, { subject: LONG_WORD, body: `Nothing works: ${LONG_WORD}` });
  await page.setViewportSize({ width: 320, height: 800 });
  await signInAs("SPECIALIST");
  await page.goto(`/tickets/${number}`);
  for (const button of await runButtons(page).all()) {
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(320);
  }
  await expect(runButtons(page)).toHaveCount(2);
  const heading = (await page.getByRole("heading", { level: 1 }).boundingBox())!;
  expect(heading.x + heading.width).toBeLessThanOrEqual(320);
});

test("on a phone the trace is a list of cards, each step's arguments across the card", async ({ page, signInAs }) => {
  await signInAs("SPECIALIST");
  await approvedLayoutTicket(page);
  const trace = page.getByRole("list", { name: TRACE }).first();
  await page.setViewportSize({ width: 390, height: 900 });
  const step = trace.getByRole("listitem").first();
  const args = step.locator("details").first();
  await expect(args.locator("summary")).toContainText("Arguments");
  expect((await args.boundingBox())!.width).toBeGreaterThan((await step.boundingBox())!.width * 0.8);
  // On a wide screen the arguments and the result sit side by side.
  await page.setViewportSize({ width: 1440, height: 900 });
  expect((await args.boundingBox())!.width).toBeLessThan((await step.boundingBox())!.width * 0.5);
});

test.describe("a ticket offers only the actions that apply to it", () => {
  test("a bypassed ticket offers no run of the agent, only resolving it by hand", async ({ page, signInAs, request }) => {
    const { number, status } = await deliverTicket(request, {
      subject: "Speaker needs a person",
      body: "Please call me about order ORD-1004.",
      route: "human_review_now",
    });
    expect(status).toBe("bypassed");
    await signInAs("SPECIALIST");
    await page.goto(`/tickets/${number}`);
    await expect(page.getByRole("form", { name: "Resolve by hand" })).toBeVisible();
    await expect(runButtons(page)).toHaveCount(0);
    await expect(page.getByRole("combobox", { name: "Planner" })).toHaveCount(0);
  });

  test("a resolved ticket offers a simulated run only, and no resolving", async ({ page, signInAs, request }) => {
    const { number } = await deliverTicket(request, {
      subject: "Speaker question, answered by hand",
      body: "Does order ORD-1004 have a warranty?",
    });
    await signInAs("SPECIALIST");
    await page.goto(`/tickets/${number}`);
    // Open, it offers both.
    await expect(runButtons(page)).toHaveCount(2);
    await page.getByLabel("Your reply to the customer").fill("Yes: two years from delivery.");
    await page.getByRole("button", { name: "Send reply and resolve" }).click();
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole("form", { name: "Resolve by hand" })).toHaveCount(0, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByRole("button", { name: "Run agent" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Run in simulate mode" })).toBeVisible();
  });
});

/** The areas the navigation offers: links wholly on screen inside the bar, and the entries of its
 * menu (opened, read and closed again). `shot` saves the bar closed and open, when asked. */
async function offeredAreas(page: Page, shot?: string): Promise<{ links: string[]; menu: string[] }> {
  const nav = page.getByRole("navigation", { name: "Main" });
  // Read in one go inside the page: the bar lays itself out again after hydration, moving links
  // into the menu, and a link read one by one can be gone by the time it is measured.
  const links = await nav.evaluate((el) => {
    const bar = el.getBoundingClientRect();
    const right = Math.min(window.innerWidth, bar.right) + 1;
    return [...el.querySelectorAll("a")]
      .filter((a) => {
        const box = a.getBoundingClientRect();
        return box.width > 0 && box.x >= Math.max(0, bar.x) - 1 && box.right <= right;
      })
      .map((a) => (a.textContent ?? "").trim());
  });
  if (shot) await screenshot(page, `${shot}-closed`, false);
  const more = nav.getByRole("button", { name: "More" });
  if (!(await more.count())) return { links, menu: [] };
  await more.click();
  const items = page.getByRole("menu", { name: "More" }).getByRole("menuitem");
  await expect(items.first()).toBeVisible();
  const menu = (await items.allTextContents()).map((t) => t.trim());
  if (shot) await screenshot(page, `${shot}-open`, false);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toHaveCount(0);
  return { links, menu };
}

for (const role of ROLES) {
  test(`the ${role.toLowerCase()}'s navigation offers every area of the role, on a phone and on a wide screen`, async ({
    page,
    signInAs,
  }) => {
    await signInAs(role);
    const areas = navItemsFor(role as DemoRole).map((item) => item.label);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto("/");
      await page.waitForFunction(() => typeof (window as unknown as { next?: { version?: string } }).next?.version === "string");
      // Until the bar has measured itself (after hydration) it shows every link, clipped: read again until it has.
      await expect(async () => {
        const { links, menu } = await offeredAreas(page, `nav-${role.toLowerCase()}-${width}`);
        expect([...links, ...menu], `${role} at ${width} px: on screen ${links.join(", ")}; in the menu ${menu.join(", ")}`).toEqual(areas);
        // A wide screen holds every area in the bar.
        if (width === 1440) expect(menu).toEqual([]);
      }).toPass({ timeout: 15_000 });
    }
  });
}

test("on a phone the navigation's menu opens by keyboard, takes the admin to the page chosen and marks it current", async ({
  page,
  signInAs,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs("ADMIN");
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("button", { name: "More" }).focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu", { name: "More" });
  await expect(menu.getByRole("menuitem").first()).toBeFocused();
  await menu.getByRole("menuitem", { name: "Jobs" }).click();
  await expect(page).toHaveURL(/\/admin\/jobs$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await nav.getByRole("button", { name: "More" }).click();
  await expect(menu.getByRole("menuitem", { name: "Jobs" })).toHaveAttribute("aria-current", "page");
  await expect(menu.getByRole("menuitem", { name: "Users" })).not.toHaveAttribute("aria-current");
});

test("a 404 page has one main landmark, signed in and signed out", async ({ page, signInAs }) => {
  // Signed out, an unknown address under a public path answers 404 (anything else is sent to sign-in).
  for (const path of ["/signin/no-such-page", "/set-password/a/b"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();
    expect(await page.locator("main").count(), `<main> elements on ${path}, signed out`).toBe(1);
  }
  await signInAs("REVIEWER");
  // An address no page has, and a page's own notFound() (a ticket that does not exist).
  for (const path of ["/no-such-page", "/tickets/00000000-0000-4000-8000-000000000000"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();
    expect(await page.locator("main").count(), `<main> elements on ${path}, signed in`).toBe(1);
    await expect(page.getByRole("main")).toHaveCount(1);
  }
});
