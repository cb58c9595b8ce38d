// The figures measured against GET /api/health on the production build, on the bench database:
//   3. POST /api/intake/tickets (signed bodies, a new externalId each) vs health, 32 connections each
//   4. runAgent on the cracked-tablet path, one caller in this process, vs health at one connection;
//      on the demo data and again after the 100k-ticket scale set is added (flat between the two)
//   5. the /evals page for a signed-in lead vs health, one connection each
// The intake route has no rate limiter today; if one is added, give each request its own key or raise
// the limit here, so the limiter does not decide the figure.
import { randomUUID } from "node:crypto";
import { agentManifest } from "../../lib/agent/manifest";
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

/** Mean wall time of runAgent on fresh cracked-tablet tickets; the order and ticket are made untimed. */
async function runAgentLatency(bench: TBenchDb, runs: number): Promise<number> {
  const handle = bench.open(4);
  installDb(handle);
  try {
    const client = handle.client;
    const times: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const ticketId = await tabletTicket(client, await freshOrder(client));
      const started = performance.now();
      const run = await runAgent({ ticketId, client });
      const ms = performance.now() - started;
      if (run.reason !== "draft_ready_for_review" || run.approval?.kind !== "refund") throw new Error(`runAgent stopped with ${run.status}/${run.reason} on the cracked-tablet path`);
      if (i >= 3) times.push(ms);
    }
    return times.reduce((a, b) => a + b, 0) / times.length;
  } finally {
    await closeDb(); // closes the handle installed above
  }
}

async function healthAtOne(server: TServer, seconds: number): Promise<number> {
  return (await load({ url: `${server.origin}/api/health`, connections: 1, duration: seconds })).meanMs;
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

/** runAgent's mean and health's mean at one connection, measured in the same phase. */
export interface TAgentFigure {
  agentMs: number;
  healthMs: number;
}

/** Items 3–5 on the demo data. Returns runAgent's figure, for the scale phase to compare with. */
export async function benchHttpDemo(bench: TBenchDb, report: Report, opts: THttpOptions): Promise<TAgentFigure> {
  progress(`runAgent: ${opts.runs} cracked-tablet runs, one caller, on the demo data…`);
  const agentMs = await runAgentLatency(bench, opts.runs);
  progress("starting the production build on the bench database…");
  const server = await startServer(bench);
  try {
    await intakeVsHealth(server, report, bench.kind, opts.seconds);
    progress(`health and /evals at one connection, ${opts.seconds} s each…`);
    const health = await healthAtOne(server, opts.seconds);
    report.multiple({ measure: "runAgent, 1 caller, demo data", value: agentMs, unit: "ms", baseline: health, baselineLabel: "GET /api/health ×1", atMost: 10 });
    const evals = await evalsPage(server, opts.seconds);
    report.multiple({ measure: "/evals page, lead, demo data", value: evals, unit: "ms", baseline: health, baselineLabel: "GET /api/health ×1", atMost: 5 });
    return { agentMs, healthMs: health };
  } finally {
    await server.stop();
  }
}

/** Adds the 100k-ticket scale set to the bench database, then runAgent and /evals again. */
export async function benchHttpScale(bench: TBenchDb, report: Report, opts: THttpOptions, demo: TAgentFigure | null): Promise<void> {
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
  progress(`runAgent: ${opts.runs} cracked-tablet runs, one caller, at scale…`);
  const agentMs = await runAgentLatency(bench, opts.runs);
  const server = await startServer(bench);
  try {
    progress(`health and /evals at one connection, ${opts.seconds} s each…`);
    const health = await healthAtOne(server, opts.seconds);
    report.multiple({ measure: "runAgent, 1 caller, 100k-ticket scale", value: agentMs, unit: "ms", baseline: health, baselineLabel: "GET /api/health ×1", atMost: 10 });
    if (demo) {
      // Each phase's runAgent over its own phase's health: minutes apart on a shared machine, the raw
      // times also move with whatever else the machine is doing; health does not depend on the data.
      const scale = agentMs / health;
      const before = demo.agentMs / demo.healthMs;
      report.add({
        measure: "runAgent, scale vs demo data (flat)",
        value: `${scale.toFixed(2)}× health`,
        baseline: `demo data: ${before.toFixed(2)}× health`,
        ratio: `${(scale / before).toFixed(2)}×`,
        target: "≤ 1.25×",
        verdict: scale / before <= 1.25 ? "PASS" : "MISS",
      });
      report.note(`runAgent, one caller: ${fmt(demo.agentMs)} ms on the demo data, ${fmt(agentMs)} ms at 100k tickets (raw ratio ${(agentMs / demo.agentMs).toFixed(2)}×); health at one connection ${fmt(demo.healthMs)} ms and ${fmt(health)} ms in the same phases`);
    }
    const evals = await evalsPage(server, opts.seconds);
    report.multiple({ measure: "/evals page, lead, 100k-ticket scale", value: evals, unit: "ms", baseline: health, baselineLabel: "GET /api/health ×1", atMost: 5 });
  } finally {
    await server.stop();
  }
}
