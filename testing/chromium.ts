// The Chromium the browser suite launches, chosen in one place for playwright.config.ts and for
// npm test's check before its first step (scripts/test-all.ts): Debian's headless shell by default
// (this project's machines cannot download Playwright's own browsers), CHROMIUM_PATH when set, and
// Playwright's own when CHROMIUM_PATH is set empty. The headless shell is the build Playwright itself
// runs headless tests in: without the full browser's GPU process and window machinery, the browser
// suite takes about a third less time than in Debian's `chromium` on the same machine.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

/** Debian's package for it, and where it puts the executable. */
export const DEBIAN_PACKAGE = "chromium-headless-shell";
export const DEBIAN_CHROMIUM = "/usr/bin/chromium-headless-shell";

/** The executable Playwright is told to launch; undefined: Playwright's own. */
export function chromiumPath(): string | undefined {
  const chosen = process.env.CHROMIUM_PATH ?? DEBIAN_CHROMIUM;
  return chosen || undefined;
}

export type TChromiumCheck =
  { ok: true; path: string; version: string } | { ok: false; path: string; missing: boolean; fix: string; detail?: string };

/**
 * Whether the browser suite's Chromium is there and starts (`--version`, in well under a second):
 * checked before anything else runs, so a machine without it hears so at once, with the command to
 * run, not after the steps before the browser suite.
 */
export function checkChromium(): TChromiumCheck {
  const own = chromiumPath() === undefined;
  const path = chromiumPath() ?? chromium.executablePath();
  const fix = own
    ? "Install it first:\n  npx playwright install chromium"
    : path === DEBIAN_CHROMIUM
      ? `Install it first:\n  sudo apt-get install -y ${DEBIAN_PACKAGE}`
      : "Point CHROMIUM_PATH at a Chromium that runs, or unset it to use Debian's (${DEBIAN_CHROMIUM}).";
  if (!existsSync(path)) return { ok: false, path, missing: true, fix };
  const started = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 20_000 });
  const version = started.stdout?.trim() ?? "";
  if (started.status !== 0 || !version)
    return { ok: false, path, missing: false, fix, detail: (started.error?.message ?? started.stderr ?? "").trim().slice(0, 500) };
  return { ok: true, path, version };
}
