// The scale data set (npm run db:seed -- --scale): 100,000 tickets and 1,000,000 trace events with
// their 125,000 agent runs, for the bench (scripts/bench.ts) and for seeing the console under load.
//
// Set-based: each batch of tickets is one INSERT … SELECT whose data-modifying CTEs insert the
// tickets, then their runs (generate_series over each ticket's run count), then eight trace events
// per run (generate_series over the steps) and the proposals, so a batch is one statement, atomic,
// and a crash leaves whole batches only. Idempotent and resumable: tickets carry the external ids
// scale-000001 … scale-100000; a batch whose last ticket exists is skipped, and ON CONFLICT keeps a
// re-run from duplicating anything.
//
// The shape, per 20 consecutive tickets: 10 resolved, 4 needs_human, 2 blocked, 1 auto_approved,
// 1 completed (one live run each), 1 bypassed and 1 open (no run: a bypassed ticket reaches no
// planner); 7 of them also have a simulate run. 25 runs x 8 steps (the manifest's step budget) = 200
// trace events per 20 tickets. needs_human and resolved tickets carry a refund proposal.
//
// Bench data, not history: the tickets' audit events are added by scale-audit.ts, and routes are
// signed with this installation's bundle key so the admission gate sees what it would have seen.
import type { PrismaClient } from "../../generated/prisma/client";
import { agentManifest } from "../../lib/contracts/manifest";
import { STATUS_OF_REASON, STOP_REASONS, type TStopReason } from "../../lib/contracts/reason-codes";
import { intakeBundleKey } from "../../lib/env";
import { BUILTIN_BUNDLE_VERSION } from "../../lib/intake/builtin-bundle";
import { signRoute } from "../../lib/intake/route-signature";
import { DEFAULT_SETTINGS, policyVersion } from "../../lib/policy/settings";

export const SCALE_TICKETS = 100_000;
export const SCALE_STEPS_PER_RUN = 8;
export const SCALE_ORDERS = 1_000;
export const STALE_BUNDLE = "intake-rules-2026.08";

export const scaleExternalId = (i: number) => `scale-${String(i).padStart(6, "0")}`;

const reasonsOf = (status: string) => STOP_REASONS.filter((r) => STATUS_OF_REASON[r] === status);
const NEEDS_HUMAN_REASONS = reasonsOf("needs_human");
const BLOCKED_REASONS = reasonsOf("blocked");
const BYPASS_REASONS = reasonsOf("bypassed");

type TPatternEntry = { status: string; reasons: readonly (TStopReason | null)[] };
/** Status and reason of ticket i by i % 20; the reason cycles through its status's list. */
const PATTERN: readonly TPatternEntry[] = [
  ...Array<TPatternEntry>(10).fill({ status: "resolved", reasons: ["draft_ready_for_review"] }),
  ...Array<TPatternEntry>(4).fill({ status: "needs_human", reasons: NEEDS_HUMAN_REASONS }),
  ...Array<TPatternEntry>(2).fill({ status: "blocked", reasons: BLOCKED_REASONS }),
  { status: "auto_approved", reasons: ["refund_auto_approved"] },
  { status: "completed", reasons: [null] },
  { status: "bypassed", reasons: BYPASS_REASONS },
  { status: "open", reasons: [null] },
];

const SUBJECTS = [
  "Tablet arrived with a cracked screen",
  "Headphones stopped charging",
  "Wrong colour delivered",
  "Speaker rattles at high volume",
  "Laptop hinge broke in the first week",
  "Parcel arrived open, item missing",
  "Charger does not fit the device",
  "Refund for a cancelled order",
];

type TTicketShape = {
  i: number;
  externalId: string;
  subject: string;
  body: string;
  customerEmail: string;
  orderRef: string;
  route: "guarded_agent" | "human_review_now";
  bundleVersion: string;
  routeSignature: string | null;
  admission: "admitted" | "bypassed";
  admissionReason: string | null;
  status: string;
  reason: string | null;
  assigneeId: string | null;
  runs: number;
  proposalCents: number | null;
};

/** Ticket i (1-based) of the scale set: deterministic, so a resumed seed writes the same tickets. */
export function scaleTicket(i: number, assignees: readonly string[], bundleKey: string): TTicketShape {
  const k = i % 20;
  const cycle = Math.floor(i / 20);
  const { status, reasons } = PATTERN[k]!;
  const reason = reasons[cycle % reasons.length] ?? null;
  const externalId = scaleExternalId(i);
  const route = reason === "classifier_human_review" ? "human_review_now" : "guarded_agent";
  const bundleVersion = reason === "stale_intake_bundle" ? STALE_BUNDLE : BUILTIN_BUNDLE_VERSION;
  const routeSignature = reason === "unverified_route" ? null : signRoute({ ticketId: externalId, route, bundleVersion }, bundleKey);
  const order = 1 + (i % SCALE_ORDERS);
  const liveRun = k < 18 ? 1 : 0;
  const simulateRun = [0, 1, 2, 10, 11, 12, 13].includes(k) ? 1 : 0;
  return {
    i,
    externalId,
    subject: SUBJECTS[i % SUBJECTS.length]!,
    body: `Scale ticket ${i}: the item from order ORD-S${String(order).padStart(5, "0")} is not as described. Can I get a refund?`,
    customerEmail: `scale-customer-${String(order).padStart(5, "0")}@example.net`,
    orderRef: `ORD-S${String(order).padStart(5, "0")}`,
    route,
    bundleVersion,
    routeSignature,
    admission: status === "bypassed" ? "bypassed" : "admitted",
    admissionReason: status === "bypassed" ? reason : null,
    status,
    reason,
    assigneeId: assignees.length && i % 3 === 0 ? assignees[i % assignees.length]! : null,
    runs: liveRun + simulateRun,
    proposalCents: status === "needs_human" || status === "resolved" ? 1_000 + ((i * 7919) % 70_000) : null,
  };
}

/** One batch: tickets, their runs, the runs' trace events and proposals, in one statement. */
const BATCH_SQL = `
WITH src AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
    i int, "externalId" text, subject text, body text, "customerEmail" text, "orderRef" text, route text,
    "bundleVersion" text, "routeSignature" text, admission text, "admissionReason" text, status text,
    reason text, "assigneeId" uuid, runs int, "proposalCents" int)
),
t AS (
  INSERT INTO "Ticket" (id, "externalId", source, subject, body, "customerEmail", "orderRef", route, "bundleVersion",
    "routeSignature", admission, "admissionReason", status, reason, "assigneeId", "createdAt", "updatedAt")
  SELECT gen_random_uuid(), "externalId", 'seed', subject, body, "customerEmail", "orderRef", route::"TicketRoute",
    "bundleVersion", "routeSignature", admission::"Admission", "admissionReason", status::"TicketStatus", reason,
    "assigneeId", $2::timestamp - make_interval(secs => ($8::int - i) * 83), $2::timestamp - make_interval(secs => ($8::int - i) * 83 - 600)
  FROM src
  ON CONFLICT ("externalId") DO NOTHING
  RETURNING id, "externalId", "createdAt"
),
tt AS (
  SELECT t.id, t."createdAt", src.* FROM t JOIN src USING ("externalId")
),
r AS (
  INSERT INTO "AgentRun" (id, "ticketId", mode, planner, status, reason, "agentVersion", "bundleVersion", "policyVersion",
    manifest, budgets, "stepsUsed", "tokensUsed", "elapsedMs", citations, draft, "startedAt", "finishedAt")
  SELECT gen_random_uuid(), tt.id, (CASE WHEN n = 1 THEN 'live' ELSE 'simulate' END)::"RunMode", 'rule',
    (CASE WHEN tt.status = 'resolved' THEN 'needs_human' ELSE tt.status END)::"RunStatus", tt.reason,
    $3, tt."bundleVersion", $4, $5::jsonb, $6::jsonb, $7, 2400 + (tt.i % 900), 900 + (tt.i % 4000),
    ARRAY['return-policy-us@2']::text[],
    'Thank you for reaching out. Under our return policy [return-policy-us@2] damaged electronics may be returned for a full refund within 30 days of delivery.',
    tt."createdAt" + make_interval(mins => n), tt."createdAt" + make_interval(mins => n, secs => 4)
  FROM tt CROSS JOIN LATERAL generate_series(1, tt.runs) AS n
  RETURNING id, "ticketId", mode, "startedAt"
),
e AS (
  INSERT INTO "TraceEvent" ("runId", step, action, args, outcome, result, "policyDecision", "promptTokens",
    "completionTokens", "latencyMs", model, "promptVersion", "createdAt")
  SELECT r.id, s,
    (ARRAY['get_policy_evidence','lookup_order','get_policy_evidence','lookup_order','draft_reply','get_policy_evidence','propose_refund','request_human_approval'])[1 + (s - 1) % 8],
    CASE 1 + (s - 1) % 8
      WHEN 2 THEN jsonb_build_object('order_id', tt."orderRef")
      WHEN 4 THEN jsonb_build_object('order_id', tt."orderRef")
      WHEN 5 THEN '{}'::jsonb
      WHEN 7 THEN jsonb_build_object('order_id', tt."orderRef", 'amount_cents', coalesce(tt."proposalCents", 1000), 'reason', 'damaged_on_arrival')
      WHEN 8 THEN jsonb_build_object('reason', 'refund needs a person')
      ELSE jsonb_build_object('question', 'Can damaged electronics be refunded?')
    END,
    'ok',
    jsonb_build_object('summary', 'step ' || s || ' of the scale run'),
    '{"decision":"allow","reasons":[]}'::jsonb,
    250 + s * 10, 40 + s, 20 + (s * 37 + tt.i) % 400, 'rule-planner', 'rule-v1',
    r."startedAt" + make_interval(secs => s / 2.0)
  FROM r JOIN tt ON tt.id = r."ticketId" CROSS JOIN generate_series(1, $7::int) AS s
  RETURNING 1
),
p AS (
  INSERT INTO "RefundProposal" (id, "runId", "ticketId", "orderId", "amountCents", currency, reason, decision,
    "decisionReasons", "policyVersion", "requiredRole", simulated, "createdAt")
  SELECT gen_random_uuid(), r.id, r."ticketId", tt."orderRef", tt."proposalCents", 'USD', 'damaged_on_arrival',
    'needs_human', ARRAY['above_autonomy_limit']::text[], $4,
    (CASE WHEN tt."proposalCents" >= 50000 THEN 'SPECIALIST' ELSE 'REVIEWER' END)::"Role",
    r.mode = 'simulate', r."startedAt" + interval '3 seconds'
  FROM r JOIN tt ON tt.id = r."ticketId"
  WHERE tt."proposalCents" IS NOT NULL
  RETURNING 1
)
SELECT (SELECT count(*) FROM t)::int AS tickets, (SELECT count(*) FROM r)::int AS runs,
       (SELECT count(*) FROM e)::int AS events, (SELECT count(*) FROM p)::int AS proposals`;

export interface TScaleSummary {
  tickets: number;
  runs: number;
  events: number;
  proposals: number;
  skippedBatches: number;
}

/**
 * Adds what is missing of the scale set. `tickets` and `batchSize` are for tests; the bench expects
 * the defaults.
 */
export async function seedScale(
  client: PrismaClient,
  options: { tickets?: number; batchSize?: number; onProgress?: (line: string) => void } = {},
): Promise<TScaleSummary> {
  const total = options.tickets ?? SCALE_TICKETS;
  const batchSize = options.batchSize ?? 5_000;
  const log = options.onProgress ?? (() => {});
  const manifest = agentManifest();
  const bundleKey = intakeBundleKey(log);
  const assignees = (
    await client.user.findMany({ where: { role: { in: ["REVIEWER", "SPECIALIST"] } }, orderBy: { email: "asc" }, select: { id: true } })
  ).map((u) => u.id);

  // The customers and orders the tickets refer to (proposals need a real order).
  await client.$executeRawUnsafe(
    `INSERT INTO "Customer" (id, email, name, flagged)
     SELECT 'CUS-S' || lpad(n::text, 5, '0'), 'scale-customer-' || lpad(n::text, 5, '0') || '@example.net', 'Scale Customer ' || n, n % 50 = 0
     FROM generate_series(1, $1::int) AS n
     ON CONFLICT DO NOTHING`,
    SCALE_ORDERS,
  );
  await client.$executeRawUnsafe(
    `INSERT INTO "Order" (id, "customerId", item, "amountCents", currency, region, category, "placedAt", "deliveredAt")
     SELECT 'ORD-S' || lpad(n::text, 5, '0'), 'CUS-S' || lpad(n::text, 5, '0'), 'Scale item ' || n, 80000 + n, 'USD', 'US', 'electronics',
            now() - interval '20 days', now() - interval '15 days'
     FROM generate_series(1, $1::int) AS n
     ON CONFLICT DO NOTHING`,
    SCALE_ORDERS,
  );

  // Ticket i is created (total - i) x 83 s before the anchor, so numbers grow with time as in real
  // life; the anchor is a day ago, so the demo's tickets stay at the top of the queue.
  const anchor = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().replace("Z", "");
  const summary: TScaleSummary = { tickets: 0, runs: 0, events: 0, proposals: 0, skippedBatches: 0 };
  const started = Date.now();
  for (let start = 1; start <= total; start += batchSize) {
    const end = Math.min(total, start + batchSize - 1);
    const done = await client.ticket.findUnique({ where: { externalId: scaleExternalId(end) }, select: { id: true } });
    if (done) {
      summary.skippedBatches++;
      continue;
    }
    const shapes = [];
    for (let i = start; i <= end; i++) shapes.push(scaleTicket(i, assignees, bundleKey));
    const [counts] = await client.$queryRawUnsafe<{ tickets: number; runs: number; events: number; proposals: number }[]>(
      BATCH_SQL,
      JSON.stringify(shapes),
      anchor,
      manifest.agentVersion,
      policyVersion(DEFAULT_SETTINGS),
      JSON.stringify(manifest),
      JSON.stringify(manifest.budgets),
      SCALE_STEPS_PER_RUN,
      total,
    );
    summary.tickets += counts!.tickets;
    summary.runs += counts!.runs;
    summary.events += counts!.events;
    summary.proposals += counts!.proposals;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    log(
      `  tickets ${end.toLocaleString("en-US")}/${total.toLocaleString("en-US")} · runs +${summary.runs.toLocaleString("en-US")} · trace events +${summary.events.toLocaleString("en-US")} · ${seconds} s`,
    );
  }
  if (summary.tickets > 0) {
    // PGlite runs no autovacuum: without fresh statistics the planner would guess at the new rows.
    log("  analysing tables…");
    await client.$executeRawUnsafe(`ANALYZE "Ticket", "TicketSearchKey", "AgentRun", "TraceEvent", "RefundProposal", "Customer", "Order"`);
  }
  return summary;
}
