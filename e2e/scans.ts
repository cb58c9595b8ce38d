// Every page of app/, who may open it, its addresses and the states to open on it (menus,
// disclosures, error states): the list the accessibility scan and the layout checks walk. A page
// with no entry here fails "every page in app/ is scanned" (e2e/accessibility.spec.ts).
import type { BrowserContext, Page } from "@playwright/test";
import { ACCOUNTS, DEMO_PASSWORD, SignInPage, expect, type DemoRole } from "./fixtures";

export type TVisitor = DemoRole | "SIGNED_OUT";
export const ROLES = ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"] as const satisfies readonly DemoRole[];

/** Something opened on a page, then scanned: `open` answers the selector of what it opened (the
 * rest of the page was scanned already), or null when the page has nothing of the kind. */
export interface TState {
  name: string;
  open: (page: Page) => Promise<string | null>;
  /** Only for these visitors (default: everyone who may use the page). */
  who?: readonly TVisitor[];
}

export type TScan =
  | {
      /** Who may open the page; a signed-in role not listed gets the 403 page, scanned as "(app)/forbidden". */
      who: readonly TVisitor[];
      /** The addresses to scan, a dynamic segment filled from the seeded data. */
      paths: (page: Page) => Promise<string[]>;
      states?: TState[];
    }
  /** A file no address reaches today; the reason is the entry, and it is checked by hand. */
  | { unreachable: string };

const fixed =
  (...paths: string[]) =>
  async () =>
    paths;

/** Opens every <details> on the page: the long JSON values, the trace's results. */
const openDisclosures: TState = {
  name: "every disclosure open",
  open: async (page) => {
    // Opened in one go: the audit trail has a disclosure per event, and a click each is slow.
    const opened = await page
      .locator("details:not([open])")
      .evaluateAll((all) => all.map((d) => ((d as HTMLDetailsElement).open = true)).length);
    return opened ? "details[open]" : null;
  },
};

const userMenu: TState = {
  name: "user menu open",
  open: async (page) => {
    await page.getByRole("button", { name: /^Account: / }).click();
    await expect(page.getByRole("menuitem", { name: "Sign out everywhere" })).toBeVisible();
    return "header, [role=menu]";
  },
};

const ALL_ROLES: readonly TVisitor[] = ROLES;

/** The queue with a row selected: the selection note and the bar of bulk actions. */
const bulkBar: TState = {
  name: "a row selected, bulk actions shown",
  open: async (page) => {
    await page
      .getByRole("checkbox", { name: /^Select ticket #/ })
      .first()
      .check();
    await expect(page.getByRole("region", { name: "Bulk actions" })).toBeVisible();
    return "main";
  },
};

/** On a phone, the navigation's menu of the areas its bar has no room for (a role with few areas has none). */
const navMenu: TState = {
  name: "on a phone, the navigation's More menu open",
  open: async (page) => {
    await page.setViewportSize({ width: 390, height: 844 });
    // The bar lays itself out again after the resize, before the next frame is painted.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const more = page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "More" });
    if (!(await more.count())) return null;
    await more.click();
    await expect(page.getByRole("menu", { name: "More" })).toBeVisible();
    return "header";
  },
};

/** The keyboard's list of shortcuts, opened with ? (pages that have one). */
const shortcutsList: TState = {
  name: "keyboard shortcuts open",
  open: async (page) => {
    await page.locator("body").click({ position: { x: 1, y: 1 } });
    await page.keyboard.press("?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    return "dialog[open]";
  },
};

/** A person added on the Users page, as an admin does it: their set-password link's address. */
async function newPasswordLink(page: Page): Promise<string> {
  const admin = await (await page.context().browser()!.newContext()).newPage();
  await signIn(admin, "ADMIN");
  await admin.goto("/admin/users");
  const form = admin.getByRole("form", { name: "Add a person" });
  const email = `a11y-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Name").fill("Scan Person");
  await form.getByRole("button", { name: "Add person" }).click();
  const link = await admin.getByRole("textbox", { name: `Set-password link for ${email}` }).inputValue();
  await admin.context().close();
  return new URL(link).pathname;
}

export const SCANS: Record<string, TScan> = {
  "/signin": {
    who: ["SIGNED_OUT"],
    paths: fixed("/signin"),
    states: [
      {
        name: "a wrong password refused",
        open: async (page) => {
          await new SignInPage(page).signIn(ACCOUNTS.REVIEWER.email, "not-the-password");
          await expect(page.locator("#signin-error")).not.toBeEmpty();
          return "form";
        },
      },
    ],
  },
  // Last: the phone's width stays for the next address.
  "/": { who: ALL_ROLES, paths: fixed("/", "/?status=all"), states: [userMenu, bulkBar, navMenu] },
  // Leads read tickets; they do not create them.
  "/tickets/new": {
    who: ["REVIEWER", "SPECIALIST", "ADMIN"],
    paths: fixed("/tickets/new"),
    states: [
      {
        name: "sent empty: every field's error shown",
        open: async (page) => {
          await page.getByRole("button", { name: "Create ticket" }).click();
          await expect(page.locator("[aria-invalid=true]").first()).toBeVisible();
          return "form";
        },
      },
    ],
  },
  // A ticket waiting for a decision (a live run's approval, its trace and evidence), one bypassed
  // at intake, and one nobody has run the agent on.
  "/tickets/[id]": {
    who: ALL_ROLES,
    paths: fixed("/tickets/e2e-a11y", "/tickets/demo-stale-bundle", "/tickets/demo-sla-question"),
    states: [
      openDisclosures,
      {
        name: "a rejection without its note refused",
        who: ["REVIEWER", "SPECIALIST", "ADMIN"],
        open: async (page) => {
          const reject = page.getByRole("form", { name: "Decision" }).getByRole("button", { name: "Reject" });
          if (!(await reject.count())) return null;
          await reject.click();
          await expect(page.getByTestId("decision-message")).not.toBeEmpty();
          return "form[aria-label=Decision]";
        },
      },
      // Last: the list is a modal dialog, open until the next address loads.
      shortcutsList,
    ],
  },
  // Two seeded runs of the trace scenario's ticket (prisma/seed/e2e.ts), step by step, and a ticket
  // with no run to compare.
  "/tickets/[id]/compare": {
    who: ALL_ROLES,
    paths: fixed("/tickets/e2e-trace/compare", "/tickets/demo-sla-question/compare"),
    states: [openDisclosures],
  },
  // The list; for authors, an upload refused with its problems shown by file and line.
  "/documents": {
    who: ALL_ROLES,
    paths: fixed("/documents", "/documents?status=published&page=2"),
    states: [
      {
        name: "an upload with a problem: each file's outcome",
        who: ["SPECIALIST", "LEAD", "ADMIN"],
        open: async (page) => {
          await page.getByText("Import Markdown files").click();
          await page.getByLabel("Markdown files", { exact: true }).setInputFiles({
            name: "scan.md",
            mimeType: "text/markdown",
            buffer: Buffer.from("---\ntitle: No key\ncolour: blue\n---\nText.\n"),
          });
          await page.getByRole("button", { name: "Import 1 file" }).click();
          await expect(page.getByRole("list", { name: "Problems in scan.md" })).toBeVisible();
          return "main";
        },
      },
    ],
  },
  "/documents/[docKey]": { who: ALL_ROLES, paths: fixed("/documents/return-policy-us", "/documents/seller-private-note-44") },
  "/documents/[docKey]/[version]": {
    who: ALL_ROLES,
    paths: fixed(
      "/documents/return-policy-us/2",
      "/documents/return-policy-us/1",
      "/documents/seller-private-note-44/1",
      "/documents/e2e-evaluation-access/1",
    ),
    states: [
      {
        name: "retiring asked to confirm",
        who: ["LEAD", "ADMIN"],
        open: async (page) => {
          const retire = page.getByRole("button", { name: "Retire document…" });
          if (!(await retire.count())) return null;
          await retire.click();
          await expect(page.getByRole("form", { name: "Retire document" })).toBeVisible();
          return "form[aria-label='Retire document']";
        },
      },
    ],
  },
  // A published version's (a new version from it) and the seed's draft, which has no author yet: its editor.
  "/documents/[docKey]/[version]/edit": {
    who: ["SPECIALIST", "LEAD", "ADMIN"],
    paths: fixed("/documents/return-policy-us/2/edit", "/documents/seller-private-note-44/1/edit"),
    states: [
      {
        name: "checked with a problem",
        open: async (page) => {
          const source = page.getByLabel("Markdown source");
          await source.fill((await source.inputValue()).replace("---\n", "---\ncolour: blue\n"));
          await page.getByRole("button", { name: "Check passages" }).click();
          await expect(page.getByText(/^1 problem/)).toBeVisible();
          return "main";
        },
      },
    ],
  },
  "/documents/[docKey]/diff": { who: ALL_ROLES, paths: fixed("/documents/return-policy-us/diff", "/documents/support-sla/diff") },
  "/ledger": { who: ["SPECIALIST", "LEAD", "ADMIN"], paths: fixed("/ledger"), states: [openDisclosures] },
  "/audit": { who: ["LEAD", "ADMIN"], paths: fixed("/audit"), states: [openDisclosures] },
  // With no selection it says so; the layout spec and the batch spec open it with requests.
  "/approvals/batch": { who: ["REVIEWER", "SPECIALIST", "ADMIN"], paths: fixed("/approvals/batch") },
  "/evals": { who: ["LEAD", "ADMIN"], paths: fixed("/evals") },
  "/evals/daily": { who: ["LEAD", "ADMIN"], paths: fixed("/evals/daily") },
  "/annotations": { who: ALL_ROLES, paths: fixed("/annotations", "/annotations?mine=1"), states: [openDisclosures] },
  "/evals/[id]": {
    who: ["LEAD", "ADMIN"],
    paths: async (page) => {
      await page.goto("/evals");
      const href = await page.getByRole("table", { name: "Eval runs, newest first" }).getByRole("link").first().getAttribute("href");
      return [href!];
    },
    states: [openDisclosures],
  },
  // Without a choice it offers one; with two runs (the newest and the oldest) it shows their changes.
  "/evals/compare": {
    who: ["LEAD", "ADMIN"],
    paths: async (page) => {
      await page.goto("/evals");
      const links = page.getByRole("table", { name: "Eval runs, newest first" }).getByRole("link");
      const id = async (link: typeof links) => (await link.getAttribute("href"))!.split("/").pop()!;
      return ["/evals/compare", `/evals/compare?a=${await id(links.last())}&b=${await id(links.first())}`];
    },
    states: [openDisclosures],
  },
  "/deliveries": { who: ALL_ROLES, paths: fixed("/deliveries") },
  "/admin/sign-in": { who: ["ADMIN"], paths: fixed("/admin/sign-in") },
  "/autonomy": { who: ["LEAD", "ADMIN"], paths: fixed("/autonomy") },
  "/admin": { who: ["ADMIN"], paths: fixed("/admin") },
  "/admin/users": {
    who: ["ADMIN"],
    paths: fixed("/admin/users"),
    states: [
      {
        name: "a person added: their link shown",
        open: async (page) => {
          const form = page.getByRole("form", { name: "Add a person" });
          await form.getByLabel("Email").fill(`a11y-users-${Date.now()}@example.com`);
          await form.getByLabel("Name").fill("Scan Person");
          await form.getByRole("button", { name: "Add person" }).click();
          await expect(page.getByRole("textbox", { name: /^Set-password link for / })).toBeVisible();
          return "main";
        },
      },
    ],
  },
  // A link that works (the form) and one that does not (the reason).
  "/set-password/[token]": { who: ["SIGNED_OUT"], paths: async (page) => [await newPasswordLink(page), "/set-password/not-a-link"] },
  "/admin/jobs": { who: ["ADMIN"], paths: fixed("/admin/jobs", "/admin/jobs?view=failed"), states: [openDisclosures] },
  // Signed out, an unknown address is sent to sign-in like any other: the 404 page is for the signed-in.
  "not-found": { who: ALL_ROLES, paths: fixed("/no-such-page") },
  // A signed-in page's own notFound() (a ticket that does not exist): the 404 inside the shell.
  "(app)/not-found": { who: ALL_ROLES, paths: fixed("/tickets/00000000-0000-4000-8000-000000000000") },
  // Each role on a page of a higher one.
  "(app)/forbidden": { who: ["REVIEWER", "SPECIALIST", "LEAD"], paths: fixed("/admin") },
  forbidden: { unreachable: "forbidden() is called only by pages in (app), whose own forbidden.tsx answers for them" },
};

export async function signIn(page: Page, visitor: TVisitor) {
  if (visitor === "SIGNED_OUT") return;
  await new SignInPage(page).goto();
  await new SignInPage(page).signIn(ACCOUNTS[visitor].email, DEMO_PASSWORD);
  await expect(page.getByRole("heading", { name: "Queue", level: 1 })).toBeVisible();
}

/** Each role's session, signed in through the form once per worker and reused by the scans (a
 * session ends only when it is signed out or revoked, which no scan does). */
const sessions = new Map<TVisitor, Awaited<ReturnType<BrowserContext["cookies"]>>>();

/** Signs in as `signIn` does, the first time for a role; after that, with the same session. */
export async function signInOnce(page: Page, visitor: TVisitor) {
  const kept = sessions.get(visitor);
  if (kept) return page.context().addCookies(kept);
  await signIn(page, visitor);
  if (visitor !== "SIGNED_OUT") sessions.set(visitor, await page.context().cookies());
}
