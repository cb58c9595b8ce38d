// npm run chaos -- --approvals N --kills K [--seed S] [--auto A] [--port P] [--provider ledger-only|stripe]
// What a team running more than one machine lives through, on PostgreSQL: two production servers and
// two job workers on one database. Reviewers approve N refunds through the real approve action (real
// sessions, real HTTP, spread over both servers), the agent runs live on A more tickets whose refunds
// it auto-approves within the dial, and K times a server or a worker is killed with SIGKILL at a
// moment it has a transaction open, then restarted. Every approval whose request died is clicked
// again. When the queue has drained, the invariants are counted; any violation exits non-zero.
//
// With --provider stripe the refunds are executed at the fake Stripe, a process of its own on port
// P+2 (testing/chaos-stripe.ts): while the kills go on it answers slowly, loses answers and fails, and
// its events go to one server or the other or nowhere for a while; the workers' reconciliation asks
// about a row not final after 10 s. After the queue drained this process reconciles until every ledger
// row is final, and the refunds the provider holds are counted per approval.
//
// Needs DATABASE_URL (a database named <name>_chaos beside it is created and dropped) and a
// production build (npm run build; NEXT_DIST_DIR picks another build directory). With
// OTEL_EXPORTER_OTLP_ENDPOINT set, this process, its servers and its workers are all traced.
import { signIn } from "../testing/sign-in";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { openDb, useDb as installDb } from "../lib/db";
import { deployMigrations } from "../lib/db/migrate";
import { seedDemo } from "../prisma/seed/demo";
import { runAgent } from "../lib/agent/run-agent";
import { updatePolicySettings } from "../lib/policy/update-settings";
import { interruptExpiredRuns } from "../lib/agent/sweep-runs";
import { reconcileApprovedRefunds } from "../lib/approvals/reconcile-refunds";
import { verifyAuditChain } from "../lib/audit/verify-audit-chain";
import { QUEUES } from "../lib/jobs/queue";
import { countOpenJobs } from "../lib/jobs/count-open-jobs";
import { adminQuery, testDatabaseBase, withDatabase } from "../testing/postgres";
import { freshOrder, tabletTicket } from "../testing/runs";
import { inSpan } from "../lib/observability/tracing";
import { startTelemetry, stopTelemetry } from "../lib/observability/telemetry";
import {
  eventFigures,
  injectFaults,
  ledgerFigures,
  payOrdersAtFake,
  providerInvariants,
  reconcileAfter,
  reconcileUntilFinal,
  startFakeStripeProcess,
  type TFakeStripeProcess,
} from "../testing/chaos-stripe";

const { values } = parseArgs({
  options: {
    approvals: { type: "string", default: "100" },
    kills: { type: "string", default: "12" },
    auto: { type: "string" },
    seed: { type: "string", default: "1" },
    port: { type: "string", default: "3401" },
    provider: { type: "string", default: "ledger-only" },
  },
});
const N = Number(values.approvals);
const K = Number(values.kills);
const AUTO = values.auto === undefined ? Math.max(1, Math.round(N / 10)) : Number(values.auto);
const BASE_PORT = Number(values.port);
const PROVIDER = values.provider;
const DIST = process.env.NEXT_DIST_DIR ?? ".next";
const SECRETS = {
  AUTH_SECRET: "chaos-auth-secret-0123456789abcdef0123456",
  INTAKE_SECRET: "chaos-intake-secret-0123456789abcdef01234",
  INTAKE_BUNDLE_KEY: "chaos-bundle-key-0123456789abcdef0123456",
};
const REVIEWER = { email: "reviewer@example.com", password: "countersign-demo" };

// A small seeded generator: the same --seed gives the same kill plan.
let state = Number(values.seed) >>> 0 || 1;
const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => console.log(`chaos: ${line}`);

type TRole = "server" | "worker";
interface TProc {
  name: string;
  role: TRole;
  port?: number;
  child?: ChildProcess;
}

async function main(): Promise<number> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    console.error("npm run chaos needs DATABASE_URL (PostgreSQL): it starts several processes on one database.");
    return 2;
  }
  if (!existsSync(join(DIST, "BUILD_ID"))) {
    console.error(`No production build in ${DIST}: run npm run build first (or set NEXT_DIST_DIR).`);
    return 2;
  }
  if (!(N > 0 && K >= 0 && AUTO >= 0)) {
    console.error("--approvals must be positive, --kills and --auto zero or more.");
    return 2;
  }
  if (PROVIDER !== "ledger-only" && PROVIDER !== "stripe") {
    console.error("--provider must be ledger-only or stripe.");
    return 2;
  }

  const name = `${testDatabaseBase(base)}_chaos`;
  await adminQuery(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await adminQuery(base, `CREATE DATABASE "${name}"`);
  const url = withDatabase(base, name);
  Object.assign(process.env, SECRETS, { DATABASE_URL: url });
  let fake: TFakeStripeProcess | null = null;
  try {
    // Before anything reads the environment: this process reconciles with the same settings as the servers.
    fake = PROVIDER === "stripe" ? await startFakeStripeProcess(BASE_PORT + 2, webhookUrl(BASE_PORT)) : null;
    if (fake) Object.assign(process.env, fake.env);
    return await chaos(url, fake);
  } finally {
    fake?.child.kill("SIGKILL");
    await adminQuery(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
  }
}

const webhookUrl = (port: number) => `http://127.0.0.1:${port}/api/payments/stripe`;

async function chaos(url: string, fake: TFakeStripeProcess | null): Promise<number> {
  if (fake) log(`refunds executed at the fake Stripe on ${fake.url}`);
  log(`database ${new URL(url).pathname.slice(1)}: migrating and seeding ${N} approvals and ${AUTO} auto-approvable tickets…`);
  await deployMigrations({ kind: "postgres", url });
  const handle = openDb({ kind: "postgres", url, max: 8 });
  installDb(handle);
  const client = handle.client;
  const procs: TProc[] = [
    { name: "server-1", role: "server", port: BASE_PORT },
    { name: "server-2", role: "server", port: BASE_PORT + 1 },
    { name: "worker-1", role: "worker" },
    { name: "worker-2", role: "worker" },
  ];
  try {
    await seedDemo(client);
    // At a provider every order was paid there: the refund names its PaymentIntent.
    const paid = async <T>(made: T) => (fake && (await payOrdersAtFake(client, fake)), made);
    await paid(null);
    if (fake) await reconcileAfter(client, 10);
    const admin = await client.user.findFirstOrThrow({ where: { role: "ADMIN" } });
    // Refunds of 20 USD are auto-approved; the 79 USD ones wait for a person.
    await updatePolicySettings({
      changes: { "autonomy.autoApproveLimitCents": 5_000, "policy.dailyCapCents": 1_000_000 },
      actor: { id: admin.id, role: admin.role },
    });
    const approvals: { id: string; digest: string; ticketId: string }[] = [];
    for (let i = 0; i < N; i++) {
      const ticketId = await tabletTicket(client, await paid(await freshOrder(client)));
      const run = await runAgent({ ticketId, client });
      if (!run.approval?.id) throw new Error(`setup: ticket ${i} stopped with ${run.reason}`);
      approvals.push({ id: run.approval.id, digest: run.approval.digest, ticketId });
    }
    const autoTickets: string[] = [];
    for (let i = 0; i < AUTO; i++) autoTickets.push(await tabletTicket(client, await paid(await freshOrder(client, 2_000))));

    const env = {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: DIST,
      DATABASE_URL: url,
      ...SECRETS,
      JOB_LOCK_SECONDS: "5",
      RUN_LEASE_SECONDS: "5",
      DEMO_SEED: "false",
    };
    const start = (p: TProc) => {
      const args =
        p.role === "server"
          ? [resolve("node_modules/next/dist/bin/next"), "start", "-p", String(p.port), "-H", "127.0.0.1"]
          : ["--import", "tsx", "scripts/worker.ts"];
      p.child = spawn(process.execPath, args, {
        env: { ...env, PGAPPNAME: `chaos-${p.name}`, WORKER: "off" },
        stdio: ["ignore", "ignore", "inherit"],
      });
    };
    procs.forEach(start);
    const servers = procs.filter((p) => p.role === "server");
    await Promise.all(servers.map((s) => waitHealthy(s.port!)));
    log("two servers and two workers are up");
    const actionId = findActionId("decideApprovalAction");
    const runActionId = findActionId("runAgentAction");
    const cookie = await signIn(`http://127.0.0.1:${servers[0]!.port!}`, REVIEWER.email, REVIEWER.password);

    // The load: approvals and live runs, a few at a time, each retried until it gets an answer.
    let sent = 0;
    const outcomes = new Map<string, string>();
    const pick = (i: number) => servers[i % servers.length]!.port!;
    const work = [
      ...approvals.map(
        (a, i) => () =>
          retrying(
            () =>
              callAction(pick(i), `/tickets/${a.ticketId}`, actionId, cookie, { approvalId: a.id, digest: a.digest, decision: "approve" }),
            (r) => outcomes.set(a.id, r),
          ),
      ),
      ...autoTickets.map(
        (t, i) => () =>
          retrying(
            () => callAction(pick(i + 1), `/tickets/${t}`, runActionId, cookie, { ticketId: t, mode: "live", planner: "rule" }),
            (r) => outcomes.set(t, r),
          ),
      ),
    ].sort(() => random() - 0.5);
    let next = 0;
    const drivers = Array.from({ length: 4 }, async () => {
      while (next < work.length) {
        const job = work[next++]!;
        sent++;
        await job();
      }
    });

    // The kills: each waits until its victim has a transaction open, then SIGKILL, then a restart.
    let hits = 0;
    const killer = (async () => {
      for (let k = 0; k < K; k++) {
        await sleep(200 + random() * 600);
        const victim = procs[k % 2 === 0 ? Math.floor(random() * 2) : 2 + Math.floor(random() * 2)]!;
        const hit = await waitForOpenTransaction(client, victim, 3_000);
        victim.child?.kill("SIGKILL");
        if (hit) hits++;
        log(`kill ${k + 1}/${K}: ${victim.name}${hit ? " (in a transaction)" : " (idle)"}`);
        await sleep(300);
        start(victim);
        if (victim.role === "server") await waitHealthy(victim.port!);
      }
    })();
    // The provider's faults, for as long as the load and the kills go on.
    let loading = true;
    const faulting = fake
      ? injectFaults(fake, { random, running: () => loading, webhookUrls: servers.map((s) => webhookUrl(s.port!)) })
      : Promise.resolve(null);
    await Promise.all([...drivers, killer]).finally(() => (loading = false));
    const faults = await faulting;
    log(`load sent: ${sent} requests; waiting for the queue to drain…`);

    // Drained: no job left to do, no run still running (interrupted ones are swept once their lease ends).
    const deadline = Date.now() + 180_000;
    for (;;) {
      await interruptExpiredRuns({ client });
      await reconcileApprovedRefunds({ client, olderThanMs: 10_000 });
      const jobs = await countOpenJobs({ client, queues: [QUEUES.refundExecute, QUEUES.agentRun] });
      const running = await client.agentRun.count({ where: { status: "running" } });
      const unsettled = await client.approvalRequest.count({ where: { kind: "refund", status: "approved", executionOutcome: null } });
      if (jobs === 0 && running === 0 && unsettled === 0) break;
      if (Date.now() > deadline) {
        log(`not drained after 180 s: ${jobs} jobs, ${running} runs running, ${unsettled} approved refunds without an outcome`);
        break;
      }
      await sleep(1_000);
    }

    const atProvider = fake ? await providerChecks(client, fake, faults) : { lines: [], violations: 0 };
    const report = await invariants(
      client,
      approvals.map((a) => a.id),
    );
    const chain = await verifyAuditChain(client, { publicKey: null });
    const minHits = Math.ceil(K / 2);
    const lines = [
      `approvals driven:                       ${N} (${approvals.filter((a) => outcomes.get(a.id) === "ok").length} answered ok, the rest "already decided" on a re-click after a kill)`,
      `auto-approvable live runs:              ${AUTO} (${report.autoApproved} auto-approved; ${report.interrupted} runs interrupted by a kill, their tickets back with a person)`,
      `kills:                                  ${K}, ${hits} in an open transaction (at least ${minHits} needed)`,
      `ledger rows:                            ${report.ledgerRows}`,
      `duplicates:                             ${report.duplicates}`,
      `approved refunds without a ledger row:  ${report.approvedWithoutLedger}`,
      `approvals never decided:                ${report.undecided}`,
      `replies without their executed refund:  ${report.repliesWithoutRefund}`,
      `runs left running:                      ${report.runsRunning}`,
      `blocked refunds:                        ${report.blocked.reduce((n, b) => n + b.n, 0)}${report.blocked.map((b) => `, ${b.outcome} ${b.n}`).join("")}`,
      `expired though decided in time:         ${report.expiredInTime}`,
      `audit chain:                            ${chain.ok ? `verified (${chain.events} events)` : `BROKEN: ${JSON.stringify(chain).slice(0, 200)}`}`,
    ];
    [...lines, ...atProvider.lines].forEach((l) => console.log(l));
    const violations =
      atProvider.violations +
      report.duplicates +
      report.approvedWithoutLedger +
      report.undecided +
      report.repliesWithoutRefund +
      report.runsRunning +
      report.expiredInTime +
      (chain.ok ? 0 : 1);
    if (violations || hits < minHits) {
      console.log(
        violations
          ? `chaos: ${violations} violation(s).`
          : `chaos: only ${hits} of ${K} kills landed on work in flight; the run proves too little.`,
      );
      return 1;
    }
    console.log("chaos: every invariant held.");
    return 0;
  } finally {
    for (const p of procs) p.child?.kill("SIGKILL");
    await handle.close();
  }
}

/** The provider's side, once the queue drained: reconciled until every ledger row is final, then counted. */
async function providerChecks(
  client: ReturnType<typeof openDb>["client"],
  fake: TFakeStripeProcess,
  faults: Record<string, number> | null,
) {
  const started = Date.now();
  const reconciled = await reconcileUntilFinal(client, 120_000);
  log(
    `reconciliation: ${reconciled.passes} pass(es) in ${((Date.now() - started) / 1000).toFixed(1)} s, ${reconciled.open} rows left open`,
  );
  const provider = await providerInvariants(client, fake);
  const ledger = await ledgerFigures(client);
  const events = await eventFigures(fake);
  const ms = (n: number) => `${(n / 1000).toFixed(2)} s`;
  const lines = [
    `provider faults injected:               ${Object.entries(faults ?? {})
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
    `provider refunds:                       ${provider.refunds} for ${provider.withLedgerRow} approvals with a ledger row`,
    `approvals without exactly their one:    ${provider.wrong.length}${provider.wrong.map((w) => `\n    ${w}`).join("")}`,
    `ledger rows not as the provider says:   ${provider.disagreeing.length}${provider.disagreeing.map((w) => `\n    ${w}`).join("")}`,
    `provider refunds tied to no approval:   ${provider.untied + provider.strangers}`,
    `ledger rows by state:                   ${ledger.byState.map((s) => `${s.state} ${s.n}`).join(", ") || "none"}`,
    `final state recorded by:                ${ledger.finalBy.map((s) => `${s.source} ${s.n}`).join(", ") || "none"}`,
    `provider events:                        ${events.sent} sent, ${events.delivered} delivered, ${events.retried} needed more than one attempt (${events.attempts} attempts)`,
    `ledger rows left non-final:             ${ledger.open}`,
    `replies without a succeeded refund:     ${ledger.repliesWithoutSucceeded}`,
    `reconciliation lag (created → final):   max ${ms(ledger.lagMaxMs)}, p95 ${ms(ledger.lagP95Ms)}`,
  ];
  const violations =
    provider.wrong.length +
    provider.disagreeing.length +
    provider.untied +
    provider.strangers +
    ledger.open +
    ledger.repliesWithoutSucceeded;
  return { lines, violations };
}

/** The server action's id in the production build, by its exported name. */
function findActionId(exportedName: string): string {
  const manifest = JSON.parse(readFileSync(join(DIST, "server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName?: string }>;
  };
  const found = Object.entries(manifest.node).find(([, v]) => v.exportedName === exportedName);
  if (!found) throw new Error(`no server action ${exportedName} in ${DIST}`);
  return found[0];
}

async function waitHealthy(port: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error(`the server on port ${port} did not come up`);
}

/** One server action call, encoded as React encodes a form's FormData argument. */
async function callAction(port: number, path: string, actionId: string, cookie: string, fields: Record<string, string>): Promise<string> {
  const origin = `http://127.0.0.1:${port}`;
  // The form's fields under the reference's prefix, then the root that points at them – last, as
  // React's encodeReply writes it (the server reads referenced entries in order).
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(`_1_${k}`, v);
  body.set("0", '["$K1"]');
  const response = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "next-action": actionId, accept: "text/x-component", cookie, origin },
    body,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  for (const line of text.split("\n")) {
    const row = /^[0-9a-f]+:(\{.*"status".*\})$/.exec(line);
    if (!row) continue;
    const result = JSON.parse(row[1]!) as { status: string; message?: string };
    if (result.status === "ok") return "ok";
    if (
      result.status === "error" &&
      /already been decided|already resolved|is being executed|working on this ticket/.test(result.message ?? "")
    )
      return "already";
    throw new Error(`action answered ${JSON.stringify(result)}`);
  }
  throw new Error(`no action result (HTTP ${response.status})`);
}

/** A click that died with its server is clicked again, as a person would, until it gets an answer. */
async function retrying(call: () => Promise<string>, done: (result: string) => void): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      done(await call());
      return;
    } catch (error) {
      if (attempt > 200) throw error;
      await sleep(250);
    }
  }
}

async function waitForOpenTransaction(client: ReturnType<typeof openDb>["client"], victim: TProc, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const [row] = await client.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND xact_start IS NOT NULL AND pid <> pg_backend_pid()`,
      `chaos-${victim.name}`,
    );
    if (row!.n > 0) return true;
    await sleep(2);
  }
  return false;
}

async function invariants(client: ReturnType<typeof openDb>["client"], approvalIds: string[]) {
  const one = async (sql: string, ...args: unknown[]) => (await client.$queryRawUnsafe<{ n: number }[]>(sql, ...args))[0]!.n;
  return {
    ledgerRows: await client.ledgerEntry.count(),
    duplicates: await one(
      `SELECT count(*)::int AS n FROM (SELECT "approvalRequestId" FROM "LedgerEntry" GROUP BY 1 HAVING count(*) > 1) d`,
    ),
    approvedWithoutLedger: await one(
      `SELECT count(*)::int AS n FROM "ApprovalRequest" a WHERE a.kind = 'refund' AND a.status = 'approved'
         AND (a."executionOutcome" IS NULL OR a."executionOutcome" IN ('refund_created', 'duplicate_ignored'))
         AND NOT EXISTS (SELECT 1 FROM "LedgerEntry" l WHERE l."approvalRequestId" = a.id)`,
    ),
    undecided: await one(`SELECT count(*)::int AS n FROM "ApprovalRequest" WHERE id = ANY($1::uuid[]) AND status = 'pending'`, approvalIds),
    repliesWithoutRefund: await one(
      `SELECT count(*)::int AS n FROM "OutboxMessage" o JOIN "ApprovalRequest" a ON a.id = o."approvalRequestId"
        WHERE a.kind = 'refund' AND NOT EXISTS (SELECT 1 FROM "LedgerEntry" l WHERE l."approvalRequestId" = a.id)`,
    ),
    runsRunning: await client.agentRun.count({ where: { status: "running" } }),
    interrupted: await client.agentRun.count({ where: { status: "interrupted" } }),
    autoApproved: await client.approvalDecision.count({ where: { automatic: true } }),
    // Every refund the executor refused, by its outcome: none is expected, and each says why.
    blocked: await client.$queryRawUnsafe<{ outcome: string; n: number }[]>(
      `SELECT "executionOutcome" AS outcome, count(*)::int AS n FROM "ApprovalRequest"
        WHERE kind = 'refund' AND "executionOutcome" LIKE 'blocked:%' GROUP BY 1 ORDER BY 1`,
    ),
    // Decided in time means executed: an approval_expired whose every decision came before the expiry is a violation.
    expiredInTime: await one(
      `SELECT count(*)::int AS n FROM "ApprovalRequest" a WHERE a."executionOutcome" = 'blocked:approval_expired'
         AND NOT EXISTS (SELECT 1 FROM "ApprovalDecision" d WHERE d."approvalRequestId" = a.id AND d."createdAt" > a."expiresAt")`,
    ),
  };
}

startTelemetry({ runtime: "node", serviceName: "countersign-chaos" })
  .then(() => inSpan("chaos", {}, main))
  .then(
    async (code) => {
      await stopTelemetry();
      process.exit(code);
    },
    async (error) => {
      console.error(error instanceof Error ? error.message : error);
      await stopTelemetry();
      process.exit(1);
    },
  );
