// Pages for everyone: axe-core on every page of app/, signed in as each role (and signed out where a
// page is for that), with its menus, disclosures and error states open. A serious or critical
// violation fails the page's test (e2e/axe.ts says what is scanned and how axe gets into the page).
// Each page and state is also laid out on a 390 px phone, where nothing may make the page scroll
// sideways (e2e/sideways.ts names what sticks out).
//
// The list of pages is read from app/ itself: every page.tsx, and the not-found and forbidden pages.
// A page with no entry in SCANS (e2e/scans.ts) fails "every page in app/ is scanned", so a new page
// cannot ship without a scan.
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { expect, test } from "./fixtures";
import { scanPage, seriousOrCritical } from "./axe";
import { SCANS, signIn, signInOnce } from "./scans";
import { PHONE, sidewaysCulprits } from "./sideways";

/** The viewport every scan starts at (Playwright's Desktop Chrome). */
const DESKTOP = { width: 1280, height: 720 } as const;

/** The special files Next renders as pages of their own, wherever they sit in app/. */
const SPECIAL_FILES = new Set(["not-found.tsx", "forbidden.tsx", "unauthorized.tsx", "error.tsx", "global-error.tsx"]);

/** Every page in app/: a page.tsx by its route ("/tickets/[id]"), a special file by its path in
 * app/ without the extension ("(app)/forbidden"). */
function pagesInApp(dir = "app"): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...pagesInApp(path));
    else if (entry.name === "page.tsx") {
      // Route groups "(app)" are not part of the address.
      found.push(
        `/${relative("app", dir)
          .split(sep)
          .filter((s) => s && !/^\(.*\)$/.test(s))
          .join("/")}`,
      );
    } else if (SPECIAL_FILES.has(entry.name))
      found.push(
        relative("app", path)
          .split(sep)
          .join("/")
          .replace(/\.tsx$/, ""),
      );
  }
  return found;
}

test("every page in app/ is scanned", () => {
  const pages = pagesInApp().sort();
  expect(pages.length).toBeGreaterThan(10);
  expect(Object.keys(SCANS).sort()).toEqual(pages);
});

test.describe("axe-core finds no serious or critical violation", () => {
  // One live run on the a11y scenario's ticket, so its page holds a pending approval, a trace and
  // evidence (prisma/seed/e2e.ts gives it its own customer and order).
  test.beforeAll(async ({ browser }) => {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, "SPECIALIST");
    await page.goto("/tickets/e2e-a11y");
    if (!(await page.getByRole("heading", { name: "Waiting for your decision" }).count())) {
      await page.getByRole("button", { name: "Run agent" }).click();
      await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toBeVisible({ timeout: 20_000 });
    }
    await page.context().close();
  });

  for (const [route, scan] of Object.entries(SCANS)) {
    if ("unreachable" in scan) continue;
    for (const visitor of scan.who) {
      test(`${route} as ${visitor === "SIGNED_OUT" ? "a visitor signed out" : visitor.toLowerCase()}`, async ({ page }) => {
        // A long page (the audit trail after the whole suite) takes axe a while on a busy machine.
        test.setTimeout(120_000);
        await signInOnce(page, visitor);
        const problems: string[] = [];
        const paths = await scan.paths(page);
        expect(paths.length).toBeGreaterThan(0);
        // Each address is loaded once: scanned at desktop width, then resized to a 390 px phone, where
        // nothing may make it scroll sideways, and back; each state the same way, as it was opened.
        const sideways = async (where: string) => {
          await page.setViewportSize(PHONE);
          // What lays itself out in script after a resize (the navigation's bar) does so before the next frame.
          await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
          problems.push(...(await sidewaysCulprits(page)).map((c) => `${where} at 390 px: ${c}`));
          await page.setViewportSize(DESKTOP);
        };
        for (const path of paths) {
          const response = await page.goto(path);
          const expected = route.endsWith("not-found") ? 404 : route === "(app)/forbidden" ? 403 : 200;
          expect(response?.status(), path).toBe(expected);
          // Hydrated: client components (menus, forms) are what people use.
          await page.waitForFunction(() => typeof (window as unknown as { next?: { version?: string } }).next?.version === "string");
          problems.push(...seriousOrCritical(await scanPage(page)).map((p) => `${path}: ${p}`));
          await sideways(path);
          for (const state of scan.states ?? []) {
            if (state.who && !state.who.includes(visitor)) continue;
            const opened = await state.open(page);
            if (!opened) continue;
            problems.push(...seriousOrCritical(await scanPage(page, opened)).map((p) => `${path} (${state.name}): ${p}`));
            await sideways(`${path} (${state.name})`);
          }
        }
        expect(problems).toEqual([]);
      });
    }
  }
});
