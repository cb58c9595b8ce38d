// A live run on the page: a reviewer clicks "Run agent" and sees its first step, and the budgets
// it used, before the run ends; a tab closed in the middle leaves the run going, and a tab opened
// meanwhile follows it. These runs need a model that takes its time, so this file starts a server of
// its own (scripts/e2e-server.ts, on its shard's port + 3, its fake Stripe on + 4, a database of its
// own) with the model planner pointed at a fake model answering in 800 ms, as a hosted model would.
// With SCREENSHOTS=1 the run in progress is saved at 390 and 1440 px.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import type { Browser, Page } from "@playwright/test";
import { e2ePort, e2eServerArgs } from "../testing/e2e-data-dir";
import { testDatabaseBase, withDatabase } from "../testing/postgres";
import { startFakeOpenAI, type TFakeOpenAI } from "../lib/llm/fake-openai-server";
import { ACCOUNTS, DEMO_PASSWORD, expect, test } from "./fixtures";

const LIVE_PORT = e2ePort() + 3;
const ORIGIN = `http://127.0.0.1:${LIVE_PORT}`;
const MODEL_MS = 800;

let server: ChildProcess | undefined;
let fake: TFakeOpenAI | undefined;

/** The server's environment: the model, and on PostgreSQL a database named apart from the suite's. */
function serverEnv(model: TFakeOpenAI): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LLM_BASE_URL: model.url, LLM_MODEL: "fake-model", E2E_PORT: String(LIVE_PORT) };
  for (const name of ["DATABASE_URL", "MIGRATION_DATABASE_URL"] as const) {
    const url = process.env[name];
    if (url) env[name] = withDatabase(url, `${testDatabaseBase(url)}_live`);
  }
  return env;
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fake = await startFakeOpenAI([], { delayMs: MODEL_MS });
  server = spawn(process.execPath, e2eServerArgs(LIVE_PORT), {
    env: serverEnv(fake),
    stdio: "ignore",
    // A process group of its own (scripts/e2e-server.ts, next start), stopped whole after the file:
    // SIGTERM passed down the chain was seen to leave next start running. Each stops itself if the
    // process that started it is killed outright (testing/exit-with-parent.cjs).
    detached: true,
  });
  for (let i = 0; i < 900; i++) {
    const up = await fetch(`${ORIGIN}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    if (server.exitCode !== null) throw new Error(`the live-run server exited (${server.exitCode})`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the live-run server did not start");
});

test.afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    const exited = once(server, "exit");
    process.kill(-server.pid, "SIGTERM");
    await exited;
  }
  await fake?.close();
});

async function reviewerPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: ORIGIN });
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByLabel("Email").fill(ACCOUNTS.REVIEWER.email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Queue", level: 1 })).toBeVisible();
  return page;
}

/** Starts a run with the model planner on the scenario's ticket: answers the panel following it. */
async function runWithModel(page: Page, scenario: string) {
  await page.goto(`/tickets/e2e-${scenario}`);
  await page.getByLabel("Planner").selectOption("model");
  await page.getByRole("button", { name: "Run agent" }).click();
  return page.getByRole("region", { name: "Run in progress" });
}

test("a reviewer sees the run's first step, and its budgets moving, before the run ends", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await reviewerPage(browser);
  const panel = await runWithModel(page, "unpayable");
  const first = panel.getByRole("listitem", { name: /^Step 1: / });
  await expect(first).toBeVisible({ timeout: 15_000 });
  // The run is still going: the panel says so, the button waits, and the decision is not there yet.
  await expect(panel).toHaveAttribute("aria-busy", "true");
  await expect(page.getByRole("button", { name: "Running…" }).first()).toBeDisabled();
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toHaveCount(0);
  const tokens = panel.getByRole("meter", { name: "Tokens used" });
  expect(Number(await tokens.getAttribute("aria-valuenow"))).toBeGreaterThan(0);
  if (process.env.SCREENSHOTS) {
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: test.info().outputPath(`live-run-${width}.png`), fullPage: true });
    }
  }
  // More steps come, then the run ends: the page shows its proposal, the panel goes, the button is back.
  await expect(panel.getByRole("listitem", { name: /^Step 2: / })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("heading", { name: "Waiting for your decision" })).toBeVisible({ timeout: 30_000 });
  await expect(panel).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Run agent" })).toBeEnabled();
  await page.context().close();
});

test("a run goes on when its tab is closed, and a tab opened meanwhile follows it to its end", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await reviewerPage(browser);
  const panel = await runWithModel(page, "unpayable-second");
  await expect(panel).toBeVisible({ timeout: 15_000 });
  await page.close();

  const other = await page.context().newPage();
  await other.goto("/tickets/e2e-unpayable-second");
  // Still running, it is followed here too; or it ended already and shows its proposal.
  await expect(other.getByRole("heading", { name: "Waiting for your decision" })).toBeVisible({ timeout: 30_000 });
  await expect(other.getByRole("region", { name: "Run in progress" })).toHaveCount(0);
  await other.context().close();
});
