// The figures measured against GET /api/health on the production build, on the bench database:
//   3. POST /api/intake/tickets (signed bodies, a new externalId each) vs health, 32 connections each
//   4. runAgent on the cracked-tablet path, one caller in this process, vs health at one connection;
//      on the demo data and again after the 100k-ticket scale set is added; flat between the scale
//      database and a demo-only one, measured by turns
//   5. the /evals page for a signed-in lead vs health, one connection each
// The intake route has no rate limiter today; if one is added, give each request its own key or raise
// the limit here, so the limiter does not decide the figure.
import { randomUUID } from "node:crypto";
import { agentManifest } from "../../lib/contracts/manifest";
import { runAgent } from "../../lib/agent/run-agent";
import { closeDb, useDb as installDb } from "../../lib/db";
import { SIGNATURE_HEADER, signIntakeBody } from "../../lib/intake/receive-intake";
import { signRoute } from "../../lib/intake/route-signature";
import { SCALE_TICKETS, seedScale } from "../../prisma/seed/scale";
import { freshOrder, tabletTicket } from "../../testing/runs";
import type { TBenchDb } from "./bench-db";
import { fmt, progress, type Report } from "./report";
import { BENCH_SECRETS } from "./secrets";
import { load, signIn, startServer, type TServer } from "./server";

const WARMUP_SECONDS = 2;
const LEAD = "lead@example.com";

export interface THttpOptions {
  seconds: number;
  /** runAgent calls measured per database (after 3 warm-up calls). */
  runs: number;
}

/**
 * Mean wall time of runAgent on fresh cracked-tablet tickets (the order and ticket are made untimed), on
 * each of `dbs`, taking turns call by call: figures for two databases come from the same minutes, so
 * whatever else the machine does weighs on both alike.
 */
async function runAgentLatency(dbs: TBenchDb[], runs: number): Promise<number[]> {
  const handles = dbs.map((d) => d.open(4));
  // Anything that reads through db() reads the first; runAgent and the helpers take the client.
  installDb(handles[0]!);
  try {
    const times: number[][] = handles.map(() => []);
    for (let i = 0; i < runs + 3; i++) {
      for (const [h, handle] of handles.entries()) {
        const client = handle.client;
        const ticketId = await tabletTicket(client, await freshOrder(client));
        const started = performance.now();
        const run = await runAgent({ ticketId, client });
        const ms = performance.now() - started;
        if (run.reason !== "draft_ready_for_review" || run.approval?.kind !== "refund") throw new Error(`runAgent stopped with ${run.status}/${run.reason} on the cracked-tablet path`);
        if (i >= 3) times[h]!.push(ms);
      }
    }
    return times.map((t) => t.reduce((a, b) => a + b, 0) / t.length);
  } finally {
    await closeDb(); // the first handle, installed above
    for (const handle of handles.slice(1)) await handle.close();
  }
}

async function healthAtOne(server: TServer, seconds: number): Promise<number> {
  const health = { url: `${server.origin}/api/health`, connections: 1 };
  // A server just started answers its first requests slower: warm it as the other figures are.
  await load({ ...health, duration: WARMUP_SECONDS });
  return (await load({ ...health, duration: seconds })).meanMs;
}

async function evalsPage(server: TServer, seconds: number): Promise<number> {
  const cookie = await signIn(server.origin, LEAD);
  const page = { url: `${server.origin}/evals`, headers: { cookie } };
  const probe = await fetch(page.url, { headers: page.headers, redirect: "manual" });
  if (probe.status !== 200 || !(await probe.text()).includes("Evaluations")) throw new Error(`/evals answered ${probe.status} for a signed-in lead`);
  await load({ ...page, connections: 1, duration: WARMUP_SECONDS });
  return (await load({ ...page, connections: 1, duration: seconds })).meanMs;
}

/** A signed intake body for a new ticket about the demo's cracked tablet, with a correctly signed route. */
function intakeRequest(externalId: string): { body: string; signature: string } {
  const route = "guarded_agent" as const;
  const bundleVersion = agentManifest().intakeBundle;
  const body = JSON.stringify({
    externalId,
    subject: "Tablet arrived with a cracked screen",
    body: "Hi, my Aurora tablet (order ORD-1001) arrived with a cracked screen. Can I get a refund?",
    customerEmail: "dana.whitfield@example.net",
    orderId: "ORD-1001",
    route,
    bundleVersion,
    routeSignature: signRoute({ ticketId: externalId, route, bundleVersion }, BENCH_SECRETS.INTAKE_BUNDLE_KEY),
  });
  return { body, signature: signIntakeBody(body, BENCH_SECRETS.INTAKE_SECRET) };
}

async function intakeVsHealth(server: TServer, report: Report, kind: TBenchDb["kind"], seconds: number): Promise<void> {
  const connections = 32;
  const run = randomUUID().slice(0, 8);
  let n = 0;
  const intake = (duration: number) =>
    load({
      url: `${server.origin}/api/intake/tickets`,
      method: "POST",
      connections,
      duration,
      requests: [
        {
          method: "POST",
          setupRequest: (request) => {
            const { body, signature } = intakeRequest(`bench-${run}-${++n}`);
            return { ...request, body, headers: { ...request.headers, "content-type": "application/json", [SIGNATURE_HEADER]: signature } };
          },
        },
      ],
    });
  const health = (duration: number) => load({ url: `${server.origin}/api/health`, connections, duration });
  progress(`intake vs health: warming up, then ${connections} connections for ${seconds} s each…`);
  await health(WARMUP_SECONDS);
  await intake(WARMUP_SECONDS);
  const h = await health(seconds);
  const i = await intake(seconds);
  progress(`intake: ${i.requests.toLocaleString("en-US")} tickets created (p99 ${fmt(i.p99Ms)} ms); health: ${h.requests.toLocaleString("en-US")} answers (p99 ${fmt(h.p99Ms)} ms)`);
  report.share({ measure: `intake POST, ${connections} connections`, value: i.rate, unit: "tickets/s", baseline: h.rate, baselineLabel: `GET /api/health ×${connections}`, baselineUnit: "req/s", atLeastPercent: kind === "postgres" ? 50 : 35 });
  if (kind === "postgres") report.limit(`intake p99, ${connections} connections`, i.p99Ms, "ms", 100);
  else report.add({ measure: `intake p99, ${connections} connections`, value: `${fmt(i.p99Ms)} ms`, baseline: `health: ${fmt(h.p99Ms)} ms`, ratio: "", target: "(on PostgreSQL: < 100 ms)", verdict: "" });
}

/** Items 3–5 on the demo data. */
export async function benchHttpDemo(bench: TBenchDb, report: Report, opts: THttpOptions): Promise<void> {
  progress(`runAgent: ${opts.runs} cracked-tablet runs, one caller, on the demo data…`);
  const [agentMs] = await runAgentLatency([bench], opts.runs);
  progress("starting the production build on the bench database…");
  const server = await startServer(bench);
  try {
    await intakeVsHealth(server, report, bench.kind, opts.seconds);
    progress(`health and /evals at one connection, ${opts.seconds} s each…`);
    const health = await healthAtOne(server, opts.seconds);
    report.multiple({ measure: "runAgent, 1 caller, demo data", value: agentMs!, unit: "ms", baseline: health, baselineLabel: "GET /api/health ×1", atMost: 10 });
    const evals = await evalsPage(server, opts.seconds);
    report.multiple({ measure: "/evals page, lead, demo data", value: evals, unit: "ms", baseline: health, baselineLabel: "GET /api/health ×1", atMost: 5 });
  } finally {
    await server.stop();
  }
}

/**
 * Adds the 100k-ticket scale set to the bench database, then runAgent and /evals again. runAgent's
 * flatness is measured against a second bench database with the demo data only (`demoDb` makes it),
 * the two taking turns.
 */
export async function benchHttpScale(bench: TBenchDb, report: Report, opts: THttpOptions, demoDb: () => Promise<TBenchDb>): Promise<void> {
  progress(`scale data: adding ${SCALE_TICKETS.toLocaleString("en-US")} tickets and their runs to the bench database…`);
  const handle = bench.open(4);
  installDb(handle);
  try {
    const started = performance.now();
    let shown = 0;
    // A line every 15 s is enough to show it is moving.
    await seedScale(handle.client, {
      onProgress: (line) => {
        if (performance.now() - shown < 15_000) return;
        shown = performance.now();
        progress(line.trim());
      },
    });
    progress(`scale data added in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await closeDb();
  }
  const demo = await demoDb();
  let agentMs: number;
  let demoMs: number;
  try {
    progress(`runAgent: ${opts.runs} cracked-tablet runs, one caller, at scale and on a demo-only database by turns…`);
    [agentMs, demoMs] = (await runAgentLatency([bench, demo], opts.runs)) as [number, number];
  } finally {
    await demo.drop();
  }
  const server = await startServer(bench);
  try {
    progress(`health and /evals at one connection, ${opts.seconds} s each…`);
    const health = await healthAtOne(server, opts.seconds);
    report.multiple({ measure: "runAgent, 1 caller, 100k-ticket scale", value: agentMs, unit: "ms", baseline: health, baselineLabel: "GET /api/health ×1", atMost: 10 });
    report.multiple({ measure: "runAgent, 100k-ticket scale vs demo (flat)", value: agentMs, unit: "ms", baseline: demoMs, baselineLabel: "demo-only database, by turns", atMost: 1.25 });
    const evals = await evalsPage(server, opts.seconds);
    report.multiple({ measure: "/evals page, lead, 100k-ticket scale", value: evals, unit: "ms", baseline: health, baselineLabel: "GET /api/health ×1", atMost: 5 });
  } finally {
    await server.stop();
  }
}
