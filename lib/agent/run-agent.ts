// The agent loop. The planner proposes; the runtime holds the authority. Each turn the planner
// proposes exactly one action, within the time and tokens left, and seven steps follow it (loop-steps.ts):
//   1. checkDecision     validate the decision     (blocked: invalid_decision … invalid_argument_types)
//   2. checkTransition   validate the transition   (blocked: invalid_state_transition)
//   3. askPolicy         ask the policy gate       (deny → blocked: policy_denied; rewrite; escalate → a person)
//   4. runTool           run the tool with a timeout (needs_human: tool_timeout, tool_error;
//                                                  order_customer_mismatch when the order is not the
//                                                  ticket's customer's; token_budget_exceeded before
//                                                  a model call that cannot fit)
//   5. checkObservation  validate the observation  (needs_human: tool_invalid_output; evidence_off_topic)
//   6. recordStep        record a trace event, then the state (a hand-off, a denied or auto-approved
//                                                  proposal ends the run)
//   7. checkBudgets      check budgets             (needs_human: step/token/latency budget)
// Every tool call and every stop is on the audit chain before it takes effect. A bypassed ticket
// never reaches this loop: no planner call, no tool call, no trace event.
//
// A live run takes its ticket through the lifecycle (start_run, then finish_run) and supersedes any
// request still pending from an older run. Every run holds a lease that this process renews while
// it works; if the process dies, the lease runs out and the sweep (sweep-runs.ts) marks the run
// interrupted and hands its ticket to a person. The run recorder (lib/agent/store/run-recorder.ts) writes the run's
// records – its row, its trace, its lease – and nothing else writes them.
//
// Round trips (lib/db/round-trips.integration.test.ts holds the cracked tablet's path to its budget):
// one statement reads the ticket, the settings and the order the ticket names; one transaction
// starts the run (its audit event, then the ticket's move, the superseded request and the run row in
// one statement); steps that only read are journaled (run-journal.ts) and written with the run's
// next write; one transaction ends it (run-ending.ts: the audit events, then the run, its trace, the
// ticket's move, the approval request and, while a webhook is configured, its notification job in
// one statement). Each of these transactions takes the ticket's audit stream first, as every audited
// write does, and the rows after it.
import { randomUUID } from "node:crypto";
import type { Db } from "../db";
import { db as defaultDb } from "../db";
import { env, intakeBundleKey } from "../env";
import { moveRefusal } from "../tickets/lifecycle";
import { ticketMoveSql } from "../tickets/store/ticket-move-sql";
import { recordAuditEvent } from "../audit/record-audit-event";
import { admitTicket } from "../intake/admit-ticket";
import { routeClaimId } from "../intake/route-signature";
import { policySettingsFrom, policyVersion, type TPolicySettings } from "../policy/settings";
import { agentManifest, type TAgentManifest } from "../contracts/manifest";
import type { TPlanner } from "./planner";
import { rulePlanner } from "./rule-planner";
import {
  askPlanner,
  askPolicy,
  checkBudgets,
  checkDecision,
  checkObservation,
  checkTransition,
  elapsed,
  recordStep,
  runTool,
  type Stop,
  type TBudgets,
  type TLoop,
} from "./loop-steps";
import { readTicket, type TTicketRead } from "./read-run-ticket";
import { finishRun, type TRunResult } from "./run-ending";
import { SUPERSEDED_COUNT, supersedePendingCte } from "../approvals/store/run-request-writes";
import { RunRecorder } from "./store/run-recorder";
import { initialState } from "./state";
import { DEFAULT_TOOLS, type TToolSet } from "./tools";
import { enterContext } from "../observability/context";

export type { TTraceStep } from "./run-journal";
import type { TTraceStep } from "./run-journal";
export type { TBudgets } from "./loop-steps";
export type { TRunResult } from "./run-ending";
export { LEASE_OWNER, RunInterrupted } from "./store/run-recorder";

export interface TRunAgentInput {
  ticketId: string;
  mode?: "live" | "simulate";
  planner?: TPlanner;
  /** Who started the run (a user id), or null for the CLI and jobs. */
  startedBy?: string | null;
  budgets?: Partial<TBudgets>;
  /** Tests replace tools to make them hang, fail or lie; the allowlist cannot change. */
  tools?: Partial<TToolSet>;
  client?: Db;
  /** The model behind a model planner, recorded with the manifest. */
  model?: string | null;
  /** The batch (bulk run, shadow pass) this run belongs to. */
  batchId?: string | null;
  /** The run's lease; RUN_LEASE_SECONDS by default. */
  leaseMs?: number;
  /** The run's id, when its caller named it before it started (a live run's job: lib/agent/live-runs.ts). */
  runId?: string;
  /**
   * Its steps written as each turn ends, before the planner is asked again, so that the ticket page
   * follows the run step by step; otherwise they wait for the run's next write (run-journal.ts).
   */
  stepsAsTheyCome?: boolean;
  /** Each step as it is recorded, in order (the CLI prints them). */
  onStep?: (step: TTraceStep) => void;
}

/** A run as it opens: its ticket, its settings and versions, its row, its recorder. */
interface TOpening {
  client: Db;
  mode: "live" | "simulate";
  planner: TPlanner;
  manifest: TAgentManifest;
  limits: TBudgets;
  tools: TToolSet;
  ticket: TTicketRead;
  settings: TPolicySettings;
  base: Pick<TRunResult, "runId" | "ticketId" | "mode" | "planner" | "versions">;
  runRow: { id: string; ticketId: string } & Record<string, unknown>;
  recorder: RunRecorder;
}

/** Reads the ticket (one statement) and names the run; nothing is written yet. */
async function openRun(input: TRunAgentInput): Promise<TOpening> {
  const client = input.client ?? defaultDb();
  const mode = input.mode ?? "live";
  const planner = input.planner ?? rulePlanner;
  const manifest = agentManifest();
  const limits: TBudgets = { ...manifest.budgets, ...input.budgets };
  const ticket = await readTicket(client, input.ticketId);
  if (!ticket) throw moveRefusal("start_run", null);
  const settings = policySettingsFrom(ticket.settings);
  // Every pinned identity from the manifest, the one source the intake side reads too.
  const versions = {
    agent: manifest.agentVersion,
    bundle: manifest.intakeBundle,
    policy: policyVersion(settings),
    evidence: manifest.evidenceServiceVersion,
    // The policy documents in effect as it starts: what its evidence is drawn from.
    corpus: ticket.corpusHash,
  };
  const runId = input.runId ?? randomUUID();
  const runRow = {
    id: runId,
    ticketId: ticket.id,
    mode,
    planner: planner.id,
    agentVersion: versions.agent,
    bundleVersion: ticket.bundleVersion,
    policyVersion: versions.policy,
    corpusHash: versions.corpus,
    // The manifest as it was, and which planner (and model) this run used.
    manifest: { ...manifest, planner: { id: planner.id, model: input.model ?? null } },
    budgets: limits,
    // The reviewers' feedback the run reads, quoted as it was written: what a reviewer told it, on the record.
    feedback: reviewerFeedback(ticket),
    startedById: input.startedBy ?? null,
    batchId: input.batchId ?? null,
    startedAt: new Date(),
  };
  const recorder = new RunRecorder(client, runId, input.leaseMs ?? env().RUN_LEASE_SECONDS * 1000);
  const base = { runId, ticketId: ticket.id, mode, planner: planner.id, versions };
  return { client, mode, planner, manifest, limits, tools: { ...DEFAULT_TOOLS, ...input.tools }, ticket, settings, base, runRow, recorder };
}

/** The reviewers' feedback in the ticket's thread (sent back with a draft), oldest first. */
function reviewerFeedback(ticket: TTicketRead) {
  return ticket.thread.filter((m) => m.from === "reviewer").map(({ id, at, text }) => ({ id, at, text }));
}

const ticketEvent = (run: TOpening) =>
  ({ actorType: "agent", actorId: run.base.runId, subjectType: "ticket", subjectId: run.ticket.id, ticketId: run.ticket.id }) as const;

/** A bypassed ticket: its run is recorded as bypassed, and no planner or tool is reached. */
async function bypass(run: TOpening, admission: Extract<ReturnType<typeof admitTicket>, { admission: "bypassed" }>): Promise<TRunResult> {
  const { mode } = run;
  const row = { ...run.runRow, status: "bypassed", reason: admission.reason, finishedAt: new Date() };
  // The ticket's move and the run's row in one statement; a refused move writes neither.
  const move = mode === "live" ? ticketMoveSql({ ticketId: run.ticket.id, move: "bypass", reason: admission.reason }) : null;
  await run.recorder.recordBypass({ ...ticketEvent(run), action: "run.bypassed", inputs: { mode }, policyDecision: admission }, row, {
    move,
  });
  return {
    ...run.base,
    status: "bypassed",
    reason: admission.reason,
    path: [],
    steps: [],
    citations: [],
    draft: null,
    proposal: null,
    approval: null,
    budgets: { limits: run.limits, used: { steps: 0, tokens: 0, wallMs: 0 } },
  };
}

/**
 * The run's start. The ticket's move is the check: a resolved ticket, or one another live run holds,
 * refuses here and nothing of the run is written. The pending request of an older run is superseded
 * in the same statement: a run ending on this ticket adds its request under the ticket's audit
 * stream, locked by the run's start event, so this statement's snapshot misses none.
 */
async function startRun(run: TOpening): Promise<void> {
  const { mode, ticket, limits } = run;
  const event = {
    ...ticketEvent(run),
    action: "run.started",
    inputs: {
      mode,
      planner: run.planner.id,
      versions: run.base.versions,
      budgets: limits,
      thread: { messages: ticket.thread.length, feedback: reviewerFeedback(ticket).map((f) => f.id) },
    },
  } as const;
  if (mode !== "live") return run.recorder.recordStart(event, run.runRow, { move: null });
  await run.recorder.recordStart(event, run.runRow, {
    move: ticketMoveSql({ ticketId: ticket.id, move: "start_run", reason: null }),
    ctes: [supersedePendingCte(ticket.id)],
    columns: SUPERSEDED_COUNT,
    then: async (tx, started) => {
      const superseded = Number(started.superseded);
      if (superseded) await recordAuditEvent(tx, { ...ticketEvent(run), action: "approval.superseded", inputs: { count: superseded } });
    },
  });
}

/** The loop's view of a started run: the steps change its state and tokens, nothing else. */
function loopRunOf(run: TOpening): TLoop {
  const { ticket } = run;
  const { id, number, subject, body, customerEmail, orderRef, thread } = ticket;
  return {
    runId: run.base.runId,
    ticket,
    planner: run.planner,
    forbidden: run.manifest.forbiddenAutonomousActions,
    limits: run.limits,
    tools: run.tools,
    toolContext: {
      client: run.client,
      runId: run.base.runId,
      mode: run.mode,
      settings: run.settings,
      ticketOrder: orderRef === null ? undefined : { ref: orderRef, row: ticket.order },
    },
    recorder: run.recorder,
    state: initialState({ id, number, subject, body, customerEmail, orderRef, thread }),
    tokens: 0,
    startedAt: performance.now(),
  };
}

/**
 * A followed run's steps: `tell` gives each new step to `onStep`; `between` (none when nobody follows
 * the run) runs between two turns, telling them and, when `stepsAsTheyCome`, writing the steps not yet
 * written (with their audit events, in one transaction).
 */
function stepFollower(input: TRunAgentInput, recorder: RunRecorder) {
  let told = 0;
  const tell = () => {
    const { steps } = recorder.journal;
    for (; told < steps.length; told++) input.onStep?.(steps[told]!);
  };
  const write = async () => {
    if (input.stepsAsTheyCome && recorder.journal.unwrittenSteps().length) await recorder.recordSteps();
  };
  const between = input.stepsAsTheyCome || input.onStep ? async () => (tell(), await write()) : undefined;
  return { tell, between };
}

/** The loop: the planner proposes one action a turn, and the seven steps follow it until one stops the run. */
async function loop(run: TLoop, betweenTurns?: () => Promise<void>): Promise<Stop> {
  for (;;) {
    await betweenTurns?.();
    const planned = await askPlanner(run);
    if ("stop" in planned) return planned.stop;
    const decided = checkDecision(run, planned.go); // 1
    if ("stop" in decided) return decided.stop;
    const allowed = checkTransition(run, decided.go); // 2
    if ("stop" in allowed) return allowed.stop;
    const gated = askPolicy(run, allowed.go); // 3
    if ("stop" in gated) return gated.stop;
    const ran = await runTool(run, gated.go); // 4
    if ("stop" in ran) return ran.stop;
    const observed = checkObservation(run, ran.go); // 5
    if ("stop" in observed) return observed.stop;
    const recorded = recordStep(run, observed.go); // 6
    if ("stop" in recorded) return recorded.stop;
    const within = checkBudgets(run); // 7
    if ("stop" in within) return within.stop;
  }
}

export async function runAgent(input: TRunAgentInput): Promise<TRunResult> {
  const run = await openRun(input);
  const { ticket, recorder } = run;
  // Every line logged from here to the run's end carries the run and its ticket; the caller's do not.
  // Here, not in openRun: the ids hold for the rest of the function that enters them.
  enterContext({ runId: run.base.runId, ticketId: ticket.id });
  // The admission gate, checked again at the loop's door: a bypassed ticket gets no planner and no tool.
  const admission = admitTicket(
    { ticketId: routeClaimId(ticket), route: ticket.route, bundleVersion: ticket.bundleVersion, signature: ticket.routeSignature },
    { bundleVersion: run.manifest.intakeBundle, key: intakeBundleKey() },
  );
  if (admission.admission === "bypassed") return bypass(run, admission);
  await startRun(run);
  const releaseLease = recorder.holdLease();
  const follow = stepFollower(input, recorder);
  try {
    const looping = loopRunOf(run);
    const stop = await loop(looping, follow.between);
    // The last turn's steps are told now; they are written with the run's end.
    follow.tell();
    return await finishRun({ ...run, state: looping.state, stop, tokens: looping.tokens, wallMs: elapsed(looping) });
  } catch (error) {
    // Whatever ended the run this way, the steps it took are written: its trace, and the events of
    // the calls it made. The run itself stays as it is (running until the sweep interrupts it, or
    // interrupted already), as before.
    await recorder.recordSteps().catch(() => {});
    throw error;
  } finally {
    releaseLease();
  }
}
