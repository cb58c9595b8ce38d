// The daily series against counts taken straight from the tables (Prisma's own counts, not the
// series' SQL), over the demo's data and rows added on days of their own; and the alerts: a series
// past its threshold is recorded and posted once, a failed post is tried again under the same
// webhook-id, and evaluating the same crossing again raises nothing.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestDb } from "../../testing/db";
import { user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { SERIES_KEYS, GROUNDING_REASONS, type TSeriesKey } from "../contracts/daily-series";
import { verifyWebhook } from "../intake/webhook-signature";
import { updateNotificationSettings } from "../policy/update-notification-settings";
import { updatePolicySettings } from "../policy/update-settings";
import { readDailySeries } from "./daily-series";
import { checkSeriesAlerts, seriesAlertWebhookId } from "./series-alerts";

vi.hoisted(() => {
  process.env.NOTIFY_WEBHOOK_ALLOWED_HOSTS = "127.0.0.1";
});

const testDb = useTestDb();
const DAY = 86_400_000;
const NOW = new Date();
const TODAY = Date.parse(`${NOW.toISOString().slice(0, 10)}T00:00:00.000Z`);
const SECRET = "whsec_" + Buffer.from("series alert secret for tests, 32+").toString("base64");
const BASE = { planner: "rule", agentVersion: "v", bundleVersion: "b", policyVersion: "p", manifest: {}, budgets: {} } as const;

let server: Server;
/** The demo's own tickets are up to 95 minutes old: after midnight some of them fall on yesterday. */
let demoAdmittedYesterday = 0;
const received: { headers: Record<string, string>; body: string }[] = [];
const planned: number[] = [];

/** Rows of our own on days before today: tickets both ways, live and simulated runs, shadow decisions. */
async function addHistory() {
  const { client } = testDb();
  const ticket = await client.ticket.findFirstOrThrow({ where: { admission: "admitted" } });
  const copy = { source: "seed", subject: "s", body: "b", customerEmail: "c@example.net", route: "guarded_agent", bundleVersion: "b" } as const;
  for (const [daysAgo, admitted, bypassed] of [[1, 3, 1], [2, 0, 2], [5, 4, 0]] as const) {
    const at = (h: number) => new Date(TODAY - daysAgo * DAY + h * 3_600_000);
    for (let i = 0; i < admitted; i++) await client.ticket.create({ data: { ...copy, admission: "admitted", createdAt: at(i) } });
    for (let i = 0; i < bypassed; i++) await client.ticket.create({ data: { ...copy, admission: "bypassed", createdAt: at(23) } });
    await client.agentRun.create({ data: { ...BASE, ticketId: ticket.id, mode: "live", status: "needs_human", reason: GROUNDING_REASONS[0], startedAt: at(2), costUsd: 0.25 } });
    await client.agentRun.create({ data: { ...BASE, ticketId: ticket.id, mode: "live", status: "needs_human", reason: "draft_ready_for_review", startedAt: at(3), costUsd: 0.5 } });
    // A simulated handoff counts in no handoff series; its cost counts.
    const sim = await client.agentRun.create({ data: { ...BASE, ticketId: ticket.id, mode: "simulate", status: "needs_human", reason: GROUNDING_REASONS[1], startedAt: at(4), costUsd: 0.125 } });
    for (const agreed of [true, true, daysAgo !== 1, null])
      await client.shadowDecision.create({ data: { ticketId: ticket.id, runId: sim.id, amountCents: 1000, limitCents: 2000, wouldAutoApprove: true, agreed, createdAt: at(5) } });
    await addDecisionsAndRefunds(ticket.id, daysAgo, at);
  }
}

/**
 * Per day: requests decided by a person after waits of their own (the day's median and 90th
 * percentile differ), one decided by the system within the dial, refunds in the ledger (one failed,
 * which no series counts), and an evaluation's cost. The waits and amounts differ from day to day.
 */
async function addDecisionsAndRefunds(ticketId: string, daysAgo: number, at: (h: number) => Date) {
  const { client } = testDb();
  const reviewer = await client.user.findFirstOrThrow({ where: { role: "REVIEWER" } });
  const order = await client.order.findFirstOrThrow();
  const request = { ticketId, kind: "refund", digest: "d", operation: {}, policyVersion: "p", bundleVersion: "b", agentVersion: "v", corpusHash: "h", requiredRole: "REVIEWER", status: "approved", expiresAt: new Date(TODAY + DAY) } as const;
  for (const waitMinutes of [10 * daysAgo, 30, 45 + daysAgo, 240]) {
    const { id } = await client.approvalRequest.create({ data: { ...request, createdAt: at(6) } });
    await client.approvalDecision.create({ data: { approvalRequestId: id, decision: "approve", deciderId: reviewer.id, deciderRole: "REVIEWER", digest: "d", signature: "s", keyId: "k", createdAt: new Date(at(6).getTime() + waitMinutes * 60_000) } });
  }
  const automatic = await client.approvalRequest.create({ data: { ...request, createdAt: at(7) } });
  await client.approvalDecision.create({ data: { approvalRequestId: automatic.id, decision: "approve", automatic: true, deciderRole: "REVIEWER", digest: "d", signature: "s", keyId: "k", createdAt: at(7) } });
  for (const [i, state] of (["succeeded", "succeeded", "failed"] as const).entries())
    await client.ledgerEntry.create({ data: { idempotencyKey: `history-${daysAgo}-${i}`, orderId: order.id, amountCents: 1_000 * daysAgo + 100 * i, currency: "USD", actorType: "system", state, createdAt: at(8) } });
  await client.evalRun.create({ data: { datasetVersion: "d", datasetHash: "h", graderVersion: "g", agentVersion: "v", modelId: "m", commit: "c", receipt: {}, passed: 1, failed: 0, costUsd: 0.75 * daysAgo, createdAt: at(9) } });
}

beforeAll(async () => {
  await seedDemo(testDb().client);
  demoAdmittedYesterday = (await readDailySeries({ days: 2, now: NOW, only: ["admitted"] })).values.admitted[0]!;
  await addHistory();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(planned.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function percentile(sorted: number[], share: number): number {
  const at = (sorted.length - 1) * share;
  const low = Math.floor(at);
  return sorted[low]! + (sorted[Math.min(low + 1, sorted.length - 1)]! - sorted[low]!) * (at - low);
}

/** Each series' value for the day starting at `from`, counted with Prisma from the rows themselves. */
async function countedFromTables(from: Date): Promise<Record<TSeriesKey, number | null>> {
  const { client } = testDb();
  const to = new Date(from.getTime() + DAY);
  const within = { gte: from, lt: to };
  const refunds = await client.ledgerEntry.findMany({ where: { kind: "refund", state: { notIn: ["failed", "canceled"] }, createdAt: within } });
  const shadows = await client.shadowDecision.findMany({ where: { agreed: { not: null }, createdAt: within } });
  const requests = await client.approvalRequest.findMany({ select: { createdAt: true, decisions: { where: { automatic: false }, select: { createdAt: true } } } });
  const waits = requests
    .filter((r) => r.decisions.length > 0)
    .map((r) => ({ decided: Math.min(...r.decisions.map((d) => d.createdAt.getTime())), created: r.createdAt.getTime() }))
    .filter((w) => w.decided >= from.getTime() && w.decided < to.getTime())
    .map((w) => (w.decided - w.created) / 60_000)
    .sort((a, b) => a - b);
  const runs = await client.agentRun.findMany({ where: { status: { not: "running" }, costUsd: { not: null }, startedAt: within }, select: { costUsd: true } });
  const evals = await client.evalRun.findMany({ where: { costUsd: { not: null }, createdAt: within }, select: { costUsd: true } });
  const costs = [...runs, ...evals].map((r) => Number(r.costUsd));
  return {
    ticketsIn: await client.ticket.count({ where: { createdAt: within } }),
    admitted: await client.ticket.count({ where: { admission: "admitted", createdAt: within } }),
    bypassed: await client.ticket.count({ where: { admission: "bypassed", createdAt: within } }),
    handoffs: await client.agentRun.count({ where: { status: "needs_human", mode: "live", startedAt: within } }),
    groundingRefusals: await client.agentRun.count({ where: { mode: "live", reason: { in: [...GROUNDING_REASONS] }, startedAt: within } }),
    autoApprovals: await client.approvalDecision.count({ where: { automatic: true, createdAt: within } }),
    shadowAgreement: shadows.length ? (100 * shadows.filter((s) => s.agreed).length) / shadows.length : null,
    approvalWaitMedian: waits.length ? percentile(waits, 0.5) : null,
    approvalWaitP90: waits.length ? percentile(waits, 0.9) : null,
    refunds: refunds.length,
    refundedCents: refunds.reduce((n, r) => n + r.amountCents, 0),
    costUsd: costs.length ? costs.reduce((n, c) => n + c, 0) : null,
  };
}

describe("the daily series", () => {
  it("match counts taken straight from the tables, day by day", async () => {
    const series = await readDailySeries({ days: 7, now: NOW });
    expect(series.days).toHaveLength(7);
    expect(series.days.at(-1)).toBe(NOW.toISOString().slice(0, 10));
    for (const [i, day] of series.days.entries()) {
      const expected = await countedFromTables(new Date(`${day}T00:00:00.000Z`));
      for (const key of SERIES_KEYS) {
        const got = series.values[key][i];
        if (expected[key] === null) expect(got, `${key} on ${day}`).toBeNull();
        else expect(got, `${key} on ${day}`).toBeCloseTo(expected[key], 6);
      }
    }
    // Not a table of zeros: the days with rows of our own show them.
    const yesterday = series.days.length - 2;
    expect(series.values.admitted[yesterday]).toBe(3 + demoAdmittedYesterday);
    expect(series.values.handoffs[yesterday]).toBe(2);
    expect(series.values.groundingRefusals[yesterday]).toBe(1);
    expect(series.values.shadowAgreement[yesterday]).toBeCloseTo(200 / 3);
    expect(series.values.shadowAgreement[series.days.length - 3]).toBe(100);
    expect(series.values.shadowAgreement[series.days.length - 4]).toBeNull();
    // Yesterday's decisions, refunds and costs: waits of 10, 30, 46 and 240 minutes, one automatic
    // approval, two refunds that count (1,000 and 1,100 cents) and a failed one that does not.
    expect(series.values.autoApprovals[yesterday]).toBe(1);
    expect(series.values.approvalWaitMedian[yesterday]).toBeCloseTo(38, 6);
    expect(series.values.approvalWaitP90[yesterday]).toBeCloseTo(percentile([10, 30, 46, 240], 0.9), 6);
    expect(series.values.refunds[yesterday]).toBe(2);
    expect(series.values.refundedCents[yesterday]).toBe(2_100);
    expect(series.values.costUsd[yesterday]).toBeCloseTo(0.25 + 0.5 + 0.125 + 0.75, 6);
    expect(series.values.refundedCents[series.days.length - 3]).toBe(4_100);
  });
});

describe("alerts on the daily series", () => {
  it("raise one alert when a series crosses its threshold, posted once, signed; the same crossing again raises nothing", async () => {
    const { client } = testDb();
    const lead = await user(client, "LEAD");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    await updateNotificationSettings({ changes: { webhookUrl: url, webhookSecret: SECRET }, actor: await user(client, "ADMIN") });
    // Yesterday: 2 live handoffs (over 1), agreement 66.7% (under 80); bypassed 1 (not over 1).
    await updatePolicySettings({ changes: { "watch.thresholds": { handoffs: 1, shadowAgreement: 80, bypassed: 1 } }, actor: lead });
    const today = NOW.toISOString().slice(0, 10);
    const yesterday = new Date(TODAY - DAY).toISOString().slice(0, 10);
    // Handoffs and agreement yesterday are ours alone (the demo's runs and shadow decision are made now);
    // bypassed tickets are ours plus any demo ticket seeded before midnight.
    const both = await readDailySeries({ days: 2, now: NOW, only: ["handoffs", "shadowAgreement", "bypassed"] });
    const expected = [
      ["handoffs", yesterday],
      ["shadowAgreement", yesterday],
      ...(both.values.bypassed[0]! > 1 ? [["bypassed", yesterday]] : []),
      ...(both.values.handoffs[1]! > 1 ? [["handoffs", today]] : []),
      ...(both.values.bypassed[1]! > 1 ? [["bypassed", today]] : []),
      ...(both.values.shadowAgreement[1] !== null && both.values.shadowAgreement[1]! < 80 ? [["shadowAgreement", today]] : []),
    ];
    expect(both.days).toEqual([yesterday, today]);

    planned.push(500); // the first post fails: that alert is recorded, and tried again next time
    await expect(checkSeriesAlerts({ now: NOW })).rejects.toThrow(/series alert: http:\/\/127\.0\.0\.1:\d+ answered 500/);
    const alerts = await client.seriesAlert.findMany();
    expect(alerts.map((a) => [a.series, a.day]).sort()).toEqual(expected.sort());
    expect(received).toHaveLength(1);

    const again = await checkSeriesAlerts({ now: NOW });
    expect(again.raised).toEqual([]);
    expect(again.delivered).toBe(expected.length);
    expect(received).toHaveLength(expected.length + 1);
    // The retried alert kept its webhook-id; each alert was taken once.
    const ids = received.map((r) => r.headers["webhook-id"]);
    expect(ids.slice(1).sort()).toEqual(alerts.map((a) => seriesAlertWebhookId(a.id)).sort());
    expect(ids[0]).toBe(ids[1]);
    for (const r of received) {
      const verdict = verifyWebhook({ secrets: [SECRET], headers: new Headers(r.headers), payload: r.body, toleranceSeconds: 300 });
      expect(verdict.ok).toBe(true);
      expect(r.body).not.toContain(SECRET);
    }
    const handoff = received.map((r) => JSON.parse(r.body)).find((b) => b.countersign.series === "handoffs" && b.countersign.day === yesterday);
    expect(handoff.countersign).toMatchObject({ value: 2, threshold: 1 });
    expect(handoff.text).toContain("Handoffs was 2");

    const third = await checkSeriesAlerts({ now: NOW });
    expect(third).toEqual({ raised: [], delivered: 0 });
    expect(received).toHaveLength(expected.length + 1);
    expect(await client.seriesAlert.count()).toBe(expected.length);
  });
});
