// axe-core, run inside the page under test, and what the suite holds pages to.
//
// How axe gets into the page: `page.evaluate(source)`. The app answers every page with a nonce
// Content-Security-Policy (script-src 'nonce-…' 'strict-dynamic'), so a <script> that Playwright's
// addScriptTag inserts has no nonce and is refused. `evaluate` runs through the DevTools protocol,
// which the page's policy does not govern, so the page is scanned exactly as it is served. A context
// with `bypassCSP: true` would scan a page whose policy was taken away: not the page people get,
// and it would hide a violation the policy causes (e2e/security-headers.spec.ts watches for those).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import type { AxeResults, ImpactValue, Result } from "axe-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core"), "utf8");

/** What fails the suite: a violation axe rates serious or critical. */
const FAILING: readonly ImpactValue[] = ["serious", "critical"];

/** WCAG 2.0–2.2 A and AA, and axe's best practices. */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** Off by default in axe (experimental), and on here: a control whose name does not contain its
 * visible text cannot be spoken to by a voice-control user ("click Lee Lead"). */
const EXTRA_RULES = { "label-content-name-mismatch": { enabled: true } };

export interface TAxeFinding {
  rule: string;
  impact: ImpactValue | null | undefined;
  help: string;
  nodes: { target: string; summary: string | undefined }[];
}

/** Runs axe on the page as it is now (open menus, expanded details and error messages included),
 * or only on the elements `scope` selects (what a state opened, when the rest was scanned already). */
export async function scanPage(page: Page, scope?: string): Promise<TAxeFinding[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === "object");
  if (!loaded) await page.evaluate(axeSource);
  const results = await page.evaluate(
    ([tags, rules, scope]) =>
      (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<AxeResults> } }).axe.run(
        scope ? { include: [scope] } : document,
        {
          runOnly: { type: "tag", values: tags },
          rules,
          resultTypes: ["violations"],
        },
      ),
    [TAGS, EXTRA_RULES, scope ?? null] as const,
  );
  return results.violations.map((v: Result) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary?.split("\n").slice(1, 2).join(" ").trim() })),
  }));
}

/** The serious and critical findings, in a form a failed test prints readably. */
export function seriousOrCritical(findings: TAxeFinding[]): string[] {
  return findings
    .filter((f) => f.impact && FAILING.includes(f.impact))
    .flatMap((f) => f.nodes.map((n) => `${f.impact} ${f.rule} (${f.help}): ${n.target}${n.summary ? ` – ${n.summary}` : ""}`));
}
