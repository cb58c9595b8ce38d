// npm test: every check, in the order CI runs them, stopping at the first failure.
//   format → typecheck → lint → longest functions → unit and integration tests (Vitest) → production build → browser tests
//   → on PostgreSQL, a small chaos run (scripts/chaos.ts)
// With DATABASE_URL set to a postgres URL, the integration and browser suites run on PostgreSQL
// (in databases of their own, named after it); otherwise on embedded PGlite.
//   npm test -- --database-only   the steps whose outcome depends on the database, on the build an
//                                 earlier npm test made in this checkout (CI's second database):
//                                 the integration files of Vitest and the browser specs that read data
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { checkChromium, DEBIAN_CHROMIUM, DEBIAN_PACKAGE } from "../testing/chromium";

const node = process.execPath;
const bin = (pkg: string) => `node_modules/${pkg}`;
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

const TEST_BUILD = ".next-test";

// `sameOnAnyDatabase`: the step reads no database, so its outcome is the same on either (the build
// reads none either: its pages are rendered per request).
// `onDatabaseOnly`: what the step leaves out on CI's second database, because it reads none (the
// Vitest files without `.integration.` in their name, the browser specs about rendering and headers).
const steps: {
  name: string;
  cmd: string[];
  env?: Record<string, string>;
  postgresOnly?: boolean;
  sameOnAnyDatabase?: boolean;
  onDatabaseOnly?: { args?: string[]; env?: Record<string, string> };
}[] = [
  {
    name: "format (Prettier: npm run format writes it)",
    cmd: [bin("prettier/bin/prettier.cjs"), "--check", "--log-level", "warn", "."],
    sameOnAnyDatabase: true,
  },
  { name: "types (route types)", cmd: [bin("next/dist/bin/next"), "typegen"], sameOnAnyDatabase: true },
  { name: "typecheck", cmd: [bin("typescript/bin/tsc"), "--noEmit"], sameOnAnyDatabase: true },
  { name: "lint", cmd: [bin("eslint/bin/eslint.js"), "--max-warnings", "0", "."], sameOnAnyDatabase: true },
  {
    name: "longest functions (lib/ within 80 lines, components within 150)",
    cmd: ["--import", "tsx", "scripts/longest-functions.ts"],
    sameOnAnyDatabase: true,
  },
  // The unit files read no database (each file's name says which kind it is: AGENTS.md, "Names").
  // Of those, vitest.config.ts lists the integration files it leaves out there (SAME_ON_ANY_DATABASE).
  {
    name: "unit and integration tests",
    cmd: [bin("vitest/vitest.mjs"), "run"],
    onDatabaseOnly: { args: [".integration.test.ts"], env: { TEST_DATABASE_ONLY: "1" } },
  },
  {
    name: "build (test build in .next-test)",
    cmd: [bin("next/dist/bin/next"), "build"],
    env: { NEXT_DIST_DIR: TEST_BUILD },
    sameOnAnyDatabase: true,
  },
  // playwright.config.ts lists the specs E2E_DATABASE_ONLY leaves out (SAME_ON_ANY_DATABASE).
  {
    name: "browser tests (Playwright, Chromium)",
    cmd: [bin("@playwright/test/cli.js"), "test"],
    onDatabaseOnly: { env: { E2E_DATABASE_ONLY: "1" } },
  },
  // Two servers and two workers on one PostgreSQL database, killed with SIGKILL mid-transaction.
  {
    name: "chaos (PostgreSQL only: 20 approvals, 3 kills)",
    cmd: ["--import", "tsx", "scripts/chaos.ts", "--approvals", "20", "--kills", "3"],
    env: { NEXT_DIST_DIR: ".next-test" },
    postgresOnly: true,
  },
];

const args = process.argv.slice(2);
const databaseOnly = args.includes("--database-only");
const only = args.filter((a) => a !== "--database-only");
if (databaseOnly && !existsSync(`${TEST_BUILD}/BUILD_ID`)) {
  console.error(
    `--database-only runs on the test build an earlier npm test made, and there is none in ${TEST_BUILD}/: run npm test without it first.`,
  );
  process.exit(2);
}
// The browser suite needs a Chromium it can launch (this project's machines cannot download
// Playwright's own): found and started once (`--version`), installed from Debian's packages where
// this process may (as root, like CI), or the one command to run, said now rather than after the
// steps before it.
const browserStep = steps.find((s) => s.name.startsWith("browser"))!;
const runsBrowser = !only.length || only.some((o) => browserStep.name.startsWith(o));
if (runsBrowser) ensureChromium();

function ensureChromium(): void {
  let found = checkChromium();
  if (found.ok) return;
  const mayInstall = found.missing && found.path === DEBIAN_CHROMIUM && process.getuid?.() === 0 && existsSync("/usr/bin/apt-get");
  if (mayInstall) {
    console.log(`Installing Debian's ${DEBIAN_PACKAGE} for the browser tests (apt-get; Playwright cannot download its own here)…`);
    const installed = spawnSync(
      "sh",
      ["-c", `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${DEBIAN_PACKAGE} >/dev/null`],
      { stdio: "inherit" },
    );
    found = checkChromium();
    if (found.ok) return;
    console.error(
      `Installing ${DEBIAN_PACKAGE} ${installed.status === 0 ? `left no Chromium that starts at ${found.path}` : "failed"}: run \`apt-get install -y ${DEBIAN_PACKAGE}\` and npm test again.`,
    );
    process.exit(2);
  }
  console.error(
    found.missing
      ? `The browser tests need Chromium at ${found.path}, and there is none. ${found.fix}`
      : `The browser tests need Chromium at ${found.path}, and it does not start${found.detail ? ` (${found.detail})` : ""}. ${found.fix}`,
  );
  console.error("(CHROMIUM_PATH points the tests at another Chromium; CHROMIUM_PATH= uses Playwright's own browsers.)");
  process.exit(2);
}

const database = process.env.DATABASE_URL ? `PostgreSQL (${new URL(process.env.DATABASE_URL).pathname.slice(1)})` : "embedded PGlite";
console.log(`npm test on ${database}`);
const results: { name: string; ok: boolean; seconds: number }[] = [];
for (const step of steps) {
  if (only.length && !only.some((o) => step.name.startsWith(o))) continue;
  if (step.postgresOnly && !process.env.DATABASE_URL) continue;
  if (databaseOnly && step.sameOnAnyDatabase) {
    console.log(`\n━━ ${step.name}: done by the earlier npm test ━━`);
    continue;
  }
  console.log(`\n━━ ${step.name} ━━`);
  const started = Date.now();
  const narrowed = databaseOnly ? step.onDatabaseOnly : undefined;
  const r = spawnSync(node, [...step.cmd, ...(narrowed?.args ?? [])], {
    stdio: "inherit",
    env: { ...env, ...step.env, ...narrowed?.env },
  });
  const ok = r.status === 0;
  results.push({ name: step.name, ok, seconds: Math.round((Date.now() - started) / 100) / 10 });
  if (!ok) break;
}
console.log("\n━━ summary ━━");
for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"}  ${r.name} (${r.seconds}s)`);
const failed = results.filter((r) => !r.ok).length;
console.log(failed ? `npm test failed at: ${results.find((r) => !r.ok)!.name}` : `All ${results.length} steps passed on ${database}.`);
process.exit(failed ? 1 : 0);
