// Property: whatever a planner says – random JSON, or valid decisions mutated in every way – no tool
// outside the allowlist runs, nothing moves money, and every run ends in a documented status with
// the reason that status allows.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { seedDemo } from "../../prisma/seed/demo";
import { ALLOWED_ACTIONS } from "../contracts/actions";
import { scriptedPlanner } from "./planner";
import { STATUS_OF_REASON, STOP_STATUSES } from "../contracts/reason-codes";
import { runAgent } from "./run-agent";
import { DEFAULT_TOOLS, type TToolSet } from "./tools";

const testDb = useTestDb(seedDemo);
let ticketIds: string[] = [];
let tablet = "";

beforeAll(async () => {
  const { client } = testDb();
  ticketIds = (await client.ticket.findMany({ where: { admission: "admitted" }, select: { id: true } })).map((t) => t.id);
  tablet = (await client.ticket.findFirstOrThrow({ where: { externalId: "demo-cracked-tablet" } })).id;
});

const VALID = [
  { action: "get_policy_evidence", args: { question: "refund for damaged electronics: cracked" } },
  { action: "lookup_order", args: { order_id: "ORD-1001" } },
  { action: "draft_reply", args: {} },
  { action: "propose_refund", args: { order_id: "ORD-1001", amount_cents: 7900, reason: "arrived damaged" } },
  { action: "request_human_approval", args: { reason: "please check" } },
];
const HOSTILE_ACTIONS = [
  "issue_refund",
  "update_order",
  "send_email",
  "close_account",
  "change_address",
  "refund",
  "ISSUE_REFUND",
  "lookup_order ",
  "",
  "__proto__",
  "constructor",
  "toString",
  "execute_sql",
];

const anyValue = fc.jsonValue({ maxDepth: 3 });
const actionName = fc.oneof(fc.constantFrom(...ALLOWED_ACTIONS), fc.constantFrom(...HOSTILE_ACTIONS), fc.string({ maxLength: 20 }));

/** A valid decision with one thing changed: the action, a key, a value, a type, or extra fields. */
const mutated = fc
  .tuple(fc.constantFrom(...VALID), fc.nat(6), actionName, fc.string({ maxLength: 12 }), anyValue)
  .map(([base, how, name, key, value]) => {
    const d: Record<string, unknown> = structuredClone(base);
    const args = d.args as Record<string, unknown>;
    switch (how) {
      case 0:
        d.action = name;
        break;
      case 1:
        args[key || "extra"] = value;
        break;
      case 2: {
        const k = Object.keys(args)[0];
        if (k) delete args[k];
        break;
      }
      case 3: {
        const k = Object.keys(args)[0];
        if (k) args[k] = value;
        break;
      }
      case 4:
        d.args = value;
        break;
      case 5:
        d[key || "why"] = value;
        break;
      default:
        break; // unchanged: valid decisions in odd orders are part of the space too
    }
    return d;
  });

const decision = fc.oneof(
  { weight: 3, arbitrary: mutated },
  { weight: 1, arbitrary: anyValue },
  { weight: 1, arbitrary: fc.record({ action: actionName, args: fc.dictionary(fc.string({ maxLength: 10 }), anyValue) }) },
);

/** Mostly-valid runs with a hostile decision spliced in somewhere, so that hostile decisions meet
 * the runtime in every state (before evidence, after a draft, after a proposal …), not only at
 * step one; and fully random scripts. */
const script = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: VALID.length }), fc.array(fc.tuple(fc.nat(9), decision), { maxLength: 2 }))
    .map(([length, splices]) => {
      const out: unknown[] = VALID.slice(0, length);
      for (const [at, d] of splices) out.splice(at % (out.length + 1), 0, d);
      return out;
    }),
  fc.array(decision, { minLength: 1, maxLength: 8 }),
);

describe("the runtime under random and mutated planner decisions", () => {
  it("never runs a tool off the allowlist, never moves money, always ends documented", async () => {
    const { client } = testDb();
    const toolCalls: string[] = [];
    const tools = Object.fromEntries(
      ALLOWED_ACTIONS.map((name) => [name, (args: never, ctx: never) => (toolCalls.push(name), DEFAULT_TOOLS[name](args, ctx))]),
    ) as unknown as TToolSet;
    let decisionsFed = 0;
    let runs = 0;

    await fc.assert(
      fc.asyncProperty(script, fc.nat(), async (decisions, pick) => {
        runs++;
        const scripted = scriptedPlanner(decisions);
        // Count the decisions the runtime actually took from the planner, not the script's length.
        const planner = { id: "property", decide: (...a: Parameters<typeof scripted.decide>) => (decisionsFed++, scripted.decide(...a)) };
        const result = await runAgent({
          ticketId: pick % 3 ? tablet : ticketIds[pick % ticketIds.length]!,
          planner,
          tools,
          mode: pick % 2 ? "live" : "simulate",
        });
        expect(STOP_STATUSES).toContain(result.status);
        expect(STATUS_OF_REASON[result.reason]).toBe(result.status);
        expect(result.steps.length).toBeLessThanOrEqual(result.budgets.limits.maxSteps);
        for (const step of result.steps) if (step.outcome === "ok") expect(ALLOWED_ACTIONS).toContain(step.action);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 6000), seed: 20261122 },
    );

    console.log(`property: ${runs} runs, ${decisionsFed} decisions`);
    expect(decisionsFed).toBeGreaterThanOrEqual(10_000);
    expect(new Set(toolCalls).size).toBeLessThanOrEqual(ALLOWED_ACTIONS.length);
    for (const name of toolCalls) expect(ALLOWED_ACTIONS).toContain(name);
    expect(await client.ledgerEntry.count()).toBe(0);
    // Every run is stored with a documented status and reason.
    const stored = await client.agentRun.groupBy({ by: ["status", "reason"], _count: true });
    for (const row of stored) expect(STATUS_OF_REASON[row.reason as keyof typeof STATUS_OF_REASON]).toBe(row.status);
    expect(stored.reduce((n, r) => n + r._count, 0)).toBe(runs);
  }, 600_000);
});
