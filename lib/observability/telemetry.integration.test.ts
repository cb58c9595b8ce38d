// What an operator's collector receives, through a real OTLP/HTTP receiver on loopback and the same
// SDK set-up the worker and the scripts use (telemetry.ts, the Node SDK): the spans of an agent run –
// one per step, with the model, its tokens and the step's reason – and of an approval through the
// job queue, from the enqueue in the reviewer's request to the worker's refund job and its database
// work, in one trace; and the metrics operators watch, read from the database at export.
import { context, metrics, propagation, SpanKind, trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { startOtlpReceiver, type TOtlpReceiver, type TReceivedPoint, type TReceivedSpan } from "../../testing/otlp-receiver";
import { drainQueue, openJobs } from "../../testing/queue";
import { approvalFor, freshOrder, tabletTicket, ticketId, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { plannerSetup } from "../llm/choose-planner";
import { runAgent } from "../agent/run-agent";
import { decideApproval } from "../approvals/decide-approval";
import { observeOperations } from "../jobs/metrics";
import { startFakeOpenAI } from "../llm/fake-openai-server";
import { annotateContext, withContext } from "./context";
import { flushTelemetry, startTelemetry, stopTelemetry } from "./telemetry";
import { inSpan } from "./tracing";

const testDb = useTestDb();
let receiver: TOtlpReceiver;
const SET = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_METRIC_EXPORT_INTERVAL"] as const;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json";
  // Metrics leave only when the test flushes them, never on a timer.
  process.env.OTEL_METRIC_EXPORT_INTERVAL = "3600000";
  expect(await startTelemetry({ runtime: "node", serviceName: "countersign-test" })).toBe(true);
  await seedDemo(testDb().client);
  observeOperations(testDb().client);
});

afterAll(async () => {
  await stopTelemetry();
  // This test file's process leaves no SDK registered behind it.
  for (const api of [trace, metrics, propagation, context]) api.disable();
  delete (globalThis as { __countersignTelemetry?: unknown }).__countersignTelemetry;
  for (const name of SET) delete process.env[name];
  await receiver?.close();
});

const children = (parent: TReceivedSpan) => receiver.spans.filter((s) => s.traceId === parent.traceId && s.parentSpanId === parent.spanId);
function descendants(root: TReceivedSpan): TReceivedSpan[] {
  const found = children(root);
  return found.flatMap((c) => [c, ...descendants(c)]);
}
function only(spans: TReceivedSpan[], what: string): TReceivedSpan {
  expect(
    spans,
    `exactly one span: ${what}; received ${receiver.spans.length} spans, refused ${receiver.refused.join(", ") || "nothing"}`,
  ).toHaveLength(1);
  return spans[0]!;
}
/** The latest exported value of a metric's series (every export repeats each series). */
const latest = (metric: string, attributes: Record<string, string>): TReceivedPoint | undefined =>
  receiver.points.filter((p) => p.metric === metric && Object.entries(attributes).every(([k, v]) => p.attributes[k] === v)).at(-1);

describe("traces and metrics over OTLP/HTTP", () => {
  it("exports one span per agent step, with the model, the tokens it reported and the step's reason code", async () => {
    const fake = await startFakeOpenAI();
    try {
      // Evidence and the order, then a decision the runtime refuses: three steps, the last blocked.
      fake.push(
        {
          decision: { action: "get_policy_evidence", args: { question: "refund for damaged electronics: cracked" } },
          usage: { prompt_tokens: 111, completion_tokens: 11 },
        },
        { decision: { action: "lookup_order", args: { order_id: "ORD-1001" } }, usage: { prompt_tokens: 222, completion_tokens: 22 } },
        {
          decision: { action: "issue_refund", args: { order_id: "ORD-1001", amount_cents: 7900 } },
          usage: { prompt_tokens: 333, completion_tokens: 33 },
        },
      );
      const setup = plannerSetup("model", { baseURL: fake.url, apiKey: "test-key", model: "fake-model", timeoutMs: 5000 });
      const tablet = await ticketId(testDb().client, "demo-cracked-tablet");
      // Stands in for the request that starts the run (Next.js traces it in the server).
      const run = await withContext({ requestId: "req-agent-run-0001" }, () =>
        inSpan("run request", {}, () =>
          runAgent({ ticketId: tablet, mode: "simulate", planner: setup.planner, tools: setup.tools, model: setup.model }),
        ),
      );
      expect(run).toMatchObject({ status: "blocked", reason: "forbidden_action" });
      expect(run.steps).toHaveLength(3);
      await flushTelemetry();

      const request = only(
        receiver.spans.filter((s) => s.name === "run request"),
        "the run's request",
      );
      const steps = receiver.spans
        .filter((s) => s.name === "agent.step" && s.attributes["countersign.run_id"] === run.runId)
        .sort((a, b) => Number(a.attributes["countersign.agent.step"]) - Number(b.attributes["countersign.agent.step"]));
      expect(steps.map((s) => s.attributes["countersign.agent.step"])).toEqual([1, 2, 3]);
      const tokens = [
        [111, 11],
        [222, 22],
        [333, 33],
      ];
      steps.forEach((span, i) => {
        const step = run.steps[i]!;
        expect(span.attributes).toMatchObject({
          "gen_ai.request.model": "fake-model",
          "gen_ai.usage.input_tokens": tokens[i]![0],
          "gen_ai.usage.output_tokens": tokens[i]![1],
          "gen_ai.tool.name": step.action,
          "countersign.agent.outcome": step.outcome,
          // The log context's ids, on every span of the run.
          "countersign.request_id": "req-agent-run-0001",
          "countersign.ticket_id": tablet,
        });
        expect(span.attributes["gen_ai.usage.input_tokens"]).toBe(step.promptTokens);
        expect(span.attributes["gen_ai.usage.output_tokens"]).toBe(step.completionTokens);
        // One trace: each step a child of the request.
        expect([span.traceId, span.parentSpanId]).toEqual([request.traceId, request.spanId]);
        expect(span.service).toBe("countersign-test");
      });
      expect(steps.map((s) => s.attributes["countersign.agent.reason"] ?? null)).toEqual([null, null, "forbidden_action"]);
      expect(steps.map((s) => s.attributes["gen_ai.tool.name"])).toEqual(["get_policy_evidence", "lookup_order", "issue_refund"]);
    } finally {
      await fake.close();
    }
  });

  it("exports an approval through the queue as one trace: the enqueue in the reviewer's request, then the worker's refund job and its queries", async () => {
    const db = testDb();
    const request = await approvalFor(db.client, await tabletTicket(db.client, await freshOrder(db.client)));
    const reviewer = await user(db.client, "REVIEWER");

    // Before the decision: the request waits for a reviewer.
    await flushTelemetry();
    const waitingBefore = await db.client.approvalRequest.count({ where: { status: "pending", requiredRole: "REVIEWER" } });
    expect(waitingBefore).toBeGreaterThan(0);
    expect(latest("countersign.approvals.waiting", { role: "REVIEWER" })?.value).toBe(waitingBefore);
    expect(latest("countersign.approvals.oldest_waiting_age", { role: "REVIEWER" })?.value).toBeGreaterThanOrEqual(0);

    // Stands in for the approve action's request; the action names the approval on its context.
    await withContext({ requestId: "req-approve-0001" }, () =>
      inSpan("approve request", {}, async () => {
        annotateContext({ approvalId: request.id });
        await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer });
      }),
    );
    await flushTelemetry();
    expect(latest("countersign.queue.depth", { queue: "refund-execute", state: "created" })?.value).toBe(await openJobs(db));
    expect(latest("countersign.approvals.waiting", { role: "REVIEWER" })?.value).toBe(waitingBefore - 1);

    await drainQueue(db);
    await flushTelemetry();

    const approve = only(
      receiver.spans.filter((s) => s.name === "approve request"),
      "the approval's request",
    );
    const send = only(
      children(approve).filter((s) => s.name === "send refund-execute"),
      "the enqueue inside the decision",
    );
    expect(send.kind).toBe(SpanKind.PRODUCER + 1); // OTLP numbers kinds from 1 (internal)
    expect(send.attributes).toMatchObject({
      "messaging.system": "pg-boss",
      "messaging.destination.name": "refund-execute",
      "countersign.request_id": "req-approve-0001",
      "countersign.approval_id": request.id,
    });

    // The worker's part, in the same trace: the job's span continues the enqueue's.
    const job = only(
      children(send).filter((s) => s.name === "process refund-execute"),
      "the refund job, a child of its enqueue",
    );
    expect(job.kind).toBe(SpanKind.CONSUMER + 1);
    expect(job.attributes).toMatchObject({
      "messaging.system": "pg-boss",
      "messaging.message.id": request.id,
      "countersign.job_id": request.id,
      "countersign.approval_id": request.id,
      "countersign.refund.outcome": "refund_created",
      "countersign.refund.settled_now": true,
    });
    expect(job.attributes).not.toHaveProperty("countersign.request_id");
    // The settlement's database work, as Prisma's spans beneath the job's.
    expect(descendants(job).filter((s) => s.name.startsWith("prisma:")).length).toBeGreaterThan(0);

    // The executor's outcome counted, the queue drained, the approval no longer waiting.
    expect(latest("countersign.refund.executions", { outcome: "refund_created" })?.value).toBe(1);
    expect(latest("countersign.queue.depth", { queue: "refund-execute", state: "created" })?.value).toBe(0);
    expect(receiver.refused).toEqual([]);
  });
});
