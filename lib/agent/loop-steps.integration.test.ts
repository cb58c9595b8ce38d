// Step 4 of the loop (runTool) on its own, with a real recorder on a real database: where a tool's
// call stops the run and how its trace says so, and that a tool that writes finds the run's events
// written before it starts. The other steps are in loop-steps.test.ts.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { seedDemo } from "../../prisma/seed/demo";
import { policySettingsFrom } from "../policy/settings";
import type { TAllowedAction } from "../contracts/actions";
import { runTool, type TGated, type TStep } from "./loop-steps";
import { RunRecorder } from "./store/run-recorder";
import { initialState } from "./state";
import { DEFAULT_TOOLS, ORDER_CUSTOMER_MISMATCH, readOrder, type TOrderRow, type TToolSet } from "./tools";

const testDb = useTestDb(seedDemo);
let ticket = { id: "", number: 0, subject: "", body: "", customerEmail: "", orderRef: null as string | null };

beforeAll(async () => {
  ticket = await testDb().client.ticket.findFirstOrThrow({
    where: { externalId: "demo-cracked-tablet" },
    select: { id: true, number: true, subject: true, body: true, customerEmail: true, orderRef: true },
  });
});

const LIMITS = { maxSteps: 8, maxTokens: 6000, maxWallMs: 10_000, toolTimeoutMs: 50 };

function loopRun(over: { tools?: Partial<TToolSet>; ticketOrder?: { ref: string; row: TOrderRow | null }; startedAt?: number } = {}) {
  const runId = randomUUID();
  return {
    runId,
    ticket: { id: ticket.id, orderRef: ticket.orderRef, salt: null },
    limits: LIMITS,
    tools: { ...DEFAULT_TOOLS, ...over.tools },
    toolContext: { client: testDb().client, runId, mode: "live" as const, settings: policySettingsFrom([]), ticketOrder: over.ticketOrder },
    recorder: new RunRecorder(testDb().client, runId, 60_000),
    state: initialState(ticket),
    tokens: 0,
    startedAt: over.startedAt ?? performance.now(),
  };
}

const gated = (action: TAllowedAction): TGated => ({
  stepNo: 1,
  stepStarted: performance.now(),
  meta: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, model: null, promptVersion: null },
  raw: action,
  rawAction: action.action,
  rawArgs: action.args,
  action,
  gate: { decision: "allow", reasons: ["allowed"] },
  outcome: "ok",
});
const stopOf = <T>(step: TStep<T>) => ("stop" in step ? { reason: step.stop.reason, detail: step.stop.detail } : null);
const lookup: TAllowedAction = { action: "lookup_order", args: { order_id: "ORD-1001" } };
const never = () => new Promise<never>(() => {});

describe("step 4, the tool (runTool)", () => {
  it("stops a tool that does not answer within its timeout as tool_timeout, and one past the time budget as latency_budget_exceeded", async () => {
    const run = loopRun({ tools: { lookup_order: never } });
    expect(stopOf(await runTool(run, gated(lookup)))).toEqual({
      reason: "tool_timeout",
      detail: "lookup_order did not answer within 50 ms",
    });
    expect(run.recorder.journal.steps).toEqual([
      expect.objectContaining({ action: "lookup_order", outcome: "timeout", reason: "tool_timeout" }),
    ]);
    const late = loopRun({ tools: { lookup_order: never }, startedAt: performance.now() - LIMITS.maxWallMs });
    expect(stopOf(await runTool(late, gated(lookup)))).toEqual({
      reason: "latency_budget_exceeded",
      detail: "the time budget ran out during a tool call",
    });
  });

  it("stops a tool that throws as tool_error, and another customer's order as order_customer_mismatch saying nothing of it", async () => {
    const failing = loopRun({
      tools: {
        lookup_order: async () => {
          throw new Error("the order service is down");
        },
      },
    });
    expect(stopOf(await runTool(failing, gated(lookup)))).toEqual({ reason: "tool_error", detail: "the order service is down" });
    expect(failing.recorder.journal.steps[0]).toMatchObject({ outcome: "error", result: { detail: "the order service is down" } });

    // The ticket's order, as if another customer had placed it.
    const own = (await readOrder(testDb().client, "ORD-1001"))!;
    const stranger: TOrderRow = { ...own, customerName: "Someone Else", customerEmail: "someone.else@example.net" };
    const mismatch = loopRun({ ticketOrder: { ref: "ORD-1001", row: stranger } });
    expect(stopOf(await runTool(mismatch, gated(lookup)))).toEqual({ reason: "order_customer_mismatch", detail: ORDER_CUSTOMER_MISMATCH });
    expect(mismatch.recorder.journal.steps[0]).toMatchObject({ outcome: "blocked", result: { detail: ORDER_CUSTOMER_MISMATCH } });
    expect(JSON.stringify(mismatch.recorder.journal.steps)).not.toContain("Someone Else");
  });

  it("goes on with the observation of a tool that only reads, its call journaled and not yet written", async () => {
    const run = loopRun();
    const step = await runTool(run, gated(lookup));
    expect("go" in step && step.go.observation).toMatchObject({ found: true, order: { id: "ORD-1001" } });
    expect(run.recorder.journal.unwrittenEvents()).toEqual([
      expect.objectContaining({
        action: "tool.called",
        inputs: { step: 1, action: "lookup_order", args: { order_id: "ORD-1001" }, mode: "live" },
      }),
    ]);
    expect(await testDb().client.auditEvent.count({ where: { actorId: run.runId } })).toBe(0);
  });

  it("writes the run's journaled events before a tool that writes starts", async () => {
    let writtenBefore = -1;
    const run = loopRun({
      tools: {
        propose_refund: async () => {
          writtenBefore = await testDb().client.auditEvent.count({ where: { actorId: run.runId, action: "tool.called" } });
          return never();
        },
      },
    });
    const refund: TAllowedAction = { action: "propose_refund", args: { order_id: "ORD-1001", amount_cents: 100, reason: "cracked" } };
    expect(stopOf(await runTool(run, gated(refund)))?.reason).toBe("tool_timeout");
    expect(writtenBefore).toBe(1);
    expect(run.recorder.journal.unwrittenEvents()).toEqual([]);
  });
});
