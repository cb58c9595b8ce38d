// The steps of the loop (`loop` in run-agent.ts). The planner proposes exactly one action from the state
// (askPlanner: planner_error; token_budget_exceeded when its model call cannot fit in the tokens left);
// the runtime holds the authority, in this order:
//   1. checkDecision     the decision itself   (blocked: invalid_decision … invalid_argument_types)
//   2. checkTransition   what the state holds  (blocked: invalid_state_transition)
//   3. askPolicy         the policy gate       (deny → blocked: policy_denied; rewrite; escalate → a person)
//   4. runTool           the tool, with a timeout (needs_human: tool_timeout, tool_error;
//                                              order_customer_mismatch when the order is not the
//                                              ticket's customer's; token_budget_exceeded when a
//                                              tool's model call cannot fit in the tokens left)
//   5. checkObservation  its observation       (needs_human: tool_invalid_output; evidence_off_topic
//                                              when a draft answers another question than the ticket's)
//   6. recordStep        the trace event, then the state; a hand-off, a denied or an auto-approved
//                        proposal ends the run
//   7. checkBudgets      steps, tokens, wall time (needs_human: step/token/latency budget)
// Each returns `go` with what the next step needs, or `stop` with the reason the run ends for. A step
// that stops records its own trace event first (a refused decision as blocked, a failed tool with its
// outcome), so every step the planner asked for is in the trace. The steps write no row themselves:
// events and trace steps go to the run's journal, which the run recorder writes (lib/agent/store/run-recorder.ts) with
// the run's next write; runTool has it write the events before a tool that writes starts.
import { committedArgs } from "../contracts/commitment";
import type { TAllowedAction } from "../contracts/actions";
import type { TAgentManifest } from "../contracts/manifest";
import type { TStopReason } from "../contracts/reason-codes";
import type { TEvidenceAnswer } from "../evidence/answer-policy-question";
import { evaluateAction, type TActionDecision } from "../policy/evaluate-action";
import { TokenBudgetRefusal, type TPlanner } from "./planner";
import type { TTraceStep } from "./run-journal";
import type { RunRecorder } from "./store/run-recorder";
import type { TAgentState, TDraft, TOrderObservation, TProposalView } from "./state";
import { draftProblem } from "./draft-invariants";
import { traceStep } from "./step-telemetry";
import { OrderCustomerMismatch, TOOL_OUTPUTS, WRITING_TOOLS, type TToolContext, type TToolSet } from "./tools";
import { transitionProblem } from "./transitions";
import { validateDecision } from "./validate-decision";

export type TBudgets = TAgentManifest["budgets"];

/** Why a run ends: a reason code (its status is STATUS_OF_REASON's) and the words for a person. */
export class Stop {
  constructor(
    readonly reason: TStopReason,
    readonly detail: string,
  ) {}
}

/** What a step returns: go on, with what the next step needs, or stop. */
export type TStep<T> = { go: T } | { stop: Stop };
const go = <T>(next: T): TStep<T> => ({ go: next });
const stop = (reason: TStopReason, detail: string): { stop: Stop } => ({ stop: new Stop(reason, detail) });

/** One run, as its steps see it. Only the steps change `state` and `tokens`. */
export interface TLoop {
  readonly runId: string;
  /** salt: the customer's (Customer.salt), for the commitments the audit events carry instead of their words. */
  readonly ticket: { id: string; orderRef: string | null; salt: string | null };
  readonly planner: TPlanner;
  /** The manifest's forbidden actions, refused before the allowlist is read. */
  readonly forbidden: readonly string[];
  readonly limits: TBudgets;
  readonly tools: TToolSet;
  /** What every tool is given besides the state, its signal, its usage report and the tokens left. */
  readonly toolContext: Omit<TToolContext, "state" | "signal" | "reportUsage" | "tokensLeft">;
  readonly recorder: Pick<RunRecorder, "journal" | "writeEvents">;
  readonly state: TAgentState;
  /** Tokens used so far: the planner's and the tools'. */
  tokens: number;
  /** When the loop started (performance.now()): the wall-time budget counts from here. */
  readonly startedAt: number;
}

/** What a step that only journals needs of the run: its journal, not the recorder's writes. */
type TJournaling = Pick<TLoop, "runId" | "ticket" | "state"> & { readonly recorder: Pick<TLoop["recorder"], "journal"> };

/** Milliseconds since the loop started. */
export const elapsed = (run: Pick<TLoop, "startedAt">) => Math.round(performance.now() - run.startedAt);

const TIMEOUT = Symbol("timeout");
function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMEOUT>((resolve) => {
    timer = setTimeout(
      () => {
        controller.abort();
        resolve(TIMEOUT);
      },
      Math.max(0, ms),
    );
  });
  return Promise.race([work(controller.signal), timeout]).finally(() => clearTimeout(timer));
}

type TUsage = { promptTokens: number; completionTokens: number; cachedTokens: number; model: string | null; promptVersion: string | null };

/** The planner's answer: its decision as given, and what the step's trace event says of the planner. */
export interface TPlanned {
  stepNo: number;
  /** When the step started (performance.now()): its trace event's latency counts from here. */
  stepStarted: number;
  meta: TUsage;
  raw: unknown;
  /** The action and args as the planner gave them, for the trace of a refused decision. */
  rawAction: string;
  rawArgs: unknown;
}
export type TDecided = TPlanned & { action: TAllowedAction };
/** After the gate: the action to run (the planner's, or the gate's rewrite or hand-off). */
export type TGated = TDecided & { gate: TActionDecision; outcome: TTraceStep["outcome"] };
export type TRan = TGated & { observation: unknown; toolUsage: TUsage };
export type TObserved = TRan & { parsed: unknown };

const runEvent = (run: Pick<TLoop, "runId" | "ticket">) =>
  ({ actorType: "agent", actorId: run.runId, subjectType: "run", subjectId: run.runId, ticketId: run.ticket.id }) as const;

/** A step into the journal, its span and the state's history. */
function record(run: TJournaling, step: TTraceStep): void {
  run.recorder.journal.step(step);
  traceStep(run.runId, step);
  run.state.history.push({ action: step.action, outcome: step.outcome });
}

/** A refused decision changes nothing: its event is journaled, and written with the run's end. */
function blocked(
  run: TJournaling,
  planned: TPlanned,
  reason: TStopReason,
  detail: string,
  action: { action: string; args: unknown } = { action: planned.rawAction, args: planned.rawArgs },
  policyDecision: TActionDecision | null = null,
): { stop: Stop } {
  const { stepNo } = planned;
  run.recorder.journal.event({
    ...runEvent(run),
    action: "decision.blocked",
    inputs: { step: stepNo, action: action.action, args: action.args, detail },
    policyDecision: { reason },
  });
  record(run, {
    step: stepNo,
    ...action,
    outcome: "blocked",
    reason,
    result: { detail },
    policyDecision,
    latencyMs: Math.round(performance.now() - planned.stepStarted),
    ...planned.meta,
  });
  return { stop: new Stop(reason, detail) };
}

/** The planner proposes one action, within the time and tokens left; its usage counts against the
 * budget. A planner that cannot fit its model call in the tokens left says so before making it. */
export async function askPlanner(
  run: Pick<TLoop, "planner" | "state" | "limits" | "startedAt" | "tokens"> & { readonly recorder: Pick<TLoop["recorder"], "journal"> },
): Promise<TStep<TPlanned>> {
  const stepNo = run.recorder.journal.steps.length + 1;
  const stepStarted = performance.now();
  let output: Awaited<ReturnType<TPlanner["decide"]>> | typeof TIMEOUT;
  try {
    const budget = { tokensLeft: run.limits.maxTokens - run.tokens };
    output = await withTimeout(
      (signal) => run.planner.decide(structuredClone(run.state), signal, budget),
      run.limits.maxWallMs - elapsed(run),
    );
  } catch (error) {
    if (error instanceof TokenBudgetRefusal) {
      run.tokens += spentTokens(error.spent);
      return stop("token_budget_exceeded", `${error.message} (${run.tokens} tokens used of ${run.limits.maxTokens})`);
    }
    return stop("planner_error", error instanceof Error ? error.message : String(error));
  }
  if (output === TIMEOUT) return stop("latency_budget_exceeded", `the planner did not answer within the ${run.limits.maxWallMs} ms budget`);
  const promptTokens = Math.max(0, Math.floor(Number(output?.usage?.promptTokens) || 0));
  const completionTokens = Math.max(0, Math.floor(Number(output?.usage?.completionTokens) || 0));
  run.tokens += promptTokens + completionTokens;
  const meta = {
    promptTokens,
    completionTokens,
    cachedTokens: Math.min(promptTokens, Math.max(0, Math.floor(Number(output?.usage?.cachedTokens) || 0))),
    model: typeof output?.model === "string" ? output.model : null,
    promptVersion: typeof output?.promptVersion === "string" ? output.promptVersion : null,
  };
  const raw = output?.decision;
  const rawAction =
    typeof (raw as { action?: unknown })?.action === "string" ? String((raw as { action: string }).action).slice(0, 80) : "(invalid)";
  return go<TPlanned>({ stepNo, stepStarted, meta, raw, rawAction, rawArgs: (raw as { args?: unknown })?.args ?? null });
}

/** Step 1: an object, an allowlisted action, args with exactly the schema's keys and types. */
export function checkDecision(run: TJournaling & Pick<TLoop, "forbidden">, planned: TPlanned): TStep<TDecided> {
  const check = validateDecision(planned.raw, run.forbidden);
  if (!check.ok) return blocked(run, planned, check.reason, check.detail);
  return go({ ...planned, action: check.action });
}

/** Step 2: what the state must hold first (evidence and an order before a draft; what is refundable). */
export function checkTransition(run: TJournaling, decided: TDecided): TStep<TDecided> {
  const problem = transitionProblem(decided.action, run.state);
  if (problem) return blocked(run, decided, "invalid_state_transition", problem, decided.action);
  return go(decided);
}

/** Step 3: the policy gate allows, denies, rewrites the action, or hands the ticket to a person. */
export function askPolicy(run: TJournaling, decided: TDecided): TStep<TGated> {
  const gate = evaluateAction(decided.action, { orderRef: run.ticket.orderRef });
  if (gate.decision === "deny")
    return blocked(
      run,
      decided,
      "policy_denied",
      `policy denied ${decided.action.action}: ${gate.reasons.join(", ")}`,
      decided.action,
      gate,
    );
  if (gate.decision === "escalate") {
    const action = { action: "request_human_approval", args: { reason: `Escalated by policy: ${gate.reasons.join(", ")}` } } as const;
    return go({ ...decided, action, gate, outcome: "escalated" });
  }
  if (gate.decision === "rewrite") return go({ ...decided, action: gate.action, gate, outcome: "rewritten" });
  return go({ ...decided, gate, outcome: "ok" });
}

/** Tokens of a usage report, as the run counts them: whole, and never negative. */
function spentTokens(u: { promptTokens: number; completionTokens: number }): number {
  return Math.max(0, Math.floor(u.promptTokens || 0)) + Math.max(0, Math.floor(u.completionTokens || 0));
}

/** How a failed tool's step ends in the trace. */
function failureOutcome(reason: TStopReason): TTraceStep["outcome"] {
  if (reason === "tool_timeout" || reason === "latency_budget_exceeded") return "timeout";
  if (reason === "tool_error") return "error";
  // Refused by the runtime before anything happened: another customer's order, a model call over budget.
  if (reason === "order_customer_mismatch" || reason === "token_budget_exceeded") return "blocked";
  return "invalid_output";
}

/** The trace event of a step that reached its tool: what it observed, or how it failed. */
function recordToolStep(run: TJournaling, ran: TRan, failure: Stop | null, parsed?: unknown): void {
  const { meta, toolUsage } = ran;
  record(run, {
    step: ran.stepNo,
    action: ran.action.action,
    args: ran.action.args,
    outcome: failure ? failureOutcome(failure.reason) : ran.outcome,
    reason: failure?.reason ?? null,
    result: failure ? { detail: failure.detail } : parsed,
    policyDecision: ran.gate,
    latencyMs: Math.round(performance.now() - ran.stepStarted),
    promptTokens: meta.promptTokens + toolUsage.promptTokens,
    completionTokens: meta.completionTokens + toolUsage.completionTokens,
    cachedTokens: meta.cachedTokens + toolUsage.cachedTokens,
    model: meta.model ?? toolUsage.model,
    promptVersion: meta.promptVersion ?? toolUsage.promptVersion,
  });
}

/**
 * Step 4: the tool, after its call is on the audit chain: a tool that writes finds every event of the
 * run so far written before it starts; a tool that only reads has its event written with the run's
 * next write. It has until its timeout or the end of the wall-time budget, whichever comes first.
 */
export async function runTool(run: Omit<TLoop, "planner" | "forbidden">, gated: TGated): Promise<TStep<TRan>> {
  const { action } = gated;
  const { journal } = run.recorder;
  journal.event({
    ...runEvent(run),
    action: "tool.called",
    // The question quotes the ticket: the chain holds its commitment, never the customer's words.
    inputs: { step: gated.stepNo, action: action.action, args: committedArgs(action.args, run.ticket.salt), mode: run.toolContext.mode },
    policyDecision: gated.gate,
  });
  if (WRITING_TOOLS.has(action.action)) await run.recorder.writeEvents();
  const toolUsage: TUsage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, model: null, promptVersion: null };
  const reportUsage: TToolContext["reportUsage"] = (u) => {
    toolUsage.promptTokens += Math.max(0, Math.floor(u.promptTokens || 0));
    toolUsage.completionTokens += Math.max(0, Math.floor(u.completionTokens || 0));
    toolUsage.cachedTokens += Math.min(Math.max(0, Math.floor(u.promptTokens || 0)), Math.max(0, Math.floor(u.cachedTokens || 0)));
    toolUsage.model = u.model ?? toolUsage.model;
    toolUsage.promptVersion = u.promptVersion ?? toolUsage.promptVersion;
  };
  let observation: unknown;
  let failure: Stop | null = null;
  try {
    const result = await withTimeout(
      (signal) =>
        run.tools[action.action](action.args, {
          ...run.toolContext,
          state: structuredClone(run.state),
          signal,
          reportUsage,
          tokensLeft: run.limits.maxTokens - run.tokens,
        }),
      Math.min(run.limits.toolTimeoutMs, Math.max(0, run.limits.maxWallMs - elapsed(run))),
    );
    if (result !== TIMEOUT) observation = result;
    else if (elapsed(run) >= run.limits.maxWallMs)
      failure = new Stop("latency_budget_exceeded", "the time budget ran out during a tool call");
    else failure = new Stop("tool_timeout", `${action.action} did not answer within ${run.limits.toolTimeoutMs} ms`);
  } catch (error) {
    // Another customer's order: a person takes the ticket, and the trace says only that.
    if (error instanceof OrderCustomerMismatch) failure = new Stop("order_customer_mismatch", error.message);
    else if (error instanceof TokenBudgetRefusal) {
      // What the tool spent before the call it could not make still counts.
      reportUsage(error.spent);
      failure = new Stop("token_budget_exceeded", error.message);
    } else failure = new Stop("tool_error", error instanceof Error ? error.message : String(error));
  }
  run.tokens += toolUsage.promptTokens + toolUsage.completionTokens;
  const ran = { ...gated, observation, toolUsage };
  if (!failure) return go(ran);
  recordToolStep(run, ran, failure);
  return { stop: failure };
}

/**
 * Step 5: the observation against its schema; then a draft, whichever tool wrote it, against what
 * this run retrieved and looked up (its citations and numbers) and the question the ticket asks. A
 * draft that fails is out of contract; one that answers another question hands over evidence_off_topic.
 */
export function checkObservation(run: TJournaling, ran: TRan): TStep<TObserved> {
  const { action } = ran;
  const valid = TOOL_OUTPUTS[action.action].safeParse(ran.observation);
  let failure: Stop | null = null;
  if (!valid.success)
    failure = new Stop("tool_invalid_output", `${action.action} returned an invalid observation: ${valid.error.issues[0]?.message ?? "?"}`);
  else if (action.action === "draft_reply") {
    const problem = draftProblem(valid.data as TDraft, run.state);
    if (problem) failure = new Stop(problem.reason, problem.detail);
  }
  if (!failure) return go({ ...ran, parsed: valid.data });
  recordToolStep(run, ran, failure);
  return { stop: failure };
}

function handoffReason(state: TAgentState): TStopReason {
  if (state.evidence?.status === "abstain") return state.evidence.reason;
  if (state.order?.found === false) return "missing_order";
  if (state.draft) return "draft_ready_for_review";
  return "planner_requested_handoff";
}

/**
 * Step 6: the trace event, then the state, which changes only from validated observations. A hand-off
 * ends the run, and so does a proposal the policy denied or auto-approved.
 */
export function recordStep(run: TJournaling, observed: TObserved): TStep<null> {
  const { state } = run;
  const { parsed } = observed;
  recordToolStep(run, observed, null, parsed);
  switch (observed.action.action) {
    case "get_policy_evidence":
      state.evidence = parsed as TEvidenceAnswer;
      break;
    case "lookup_order":
      state.order = parsed as TOrderObservation;
      break;
    case "draft_reply":
      state.draft = parsed as TDraft;
      break;
    case "propose_refund":
      state.proposal = parsed as TProposalView;
      break;
    case "request_human_approval":
      return stop(
        observed.outcome === "escalated" ? "planner_requested_handoff" : handoffReason(state),
        (parsed as { reason: string }).reason,
      );
  }
  if (state.proposal?.decision === "denied") return stop("policy_denied", `refund proposal denied: ${state.proposal.reasons.join(", ")}`);
  if (state.proposal?.decision === "auto_approved") return stop("refund_auto_approved", "within the autonomy dial");
  return go(null);
}

/** Step 7: the budgets. A breach hands the ticket to a person. */
export function checkBudgets(
  run: Pick<TLoop, "limits" | "startedAt" | "tokens"> & { readonly recorder: Pick<TLoop["recorder"], "journal"> },
): TStep<null> {
  const { limits } = run;
  if (run.tokens > limits.maxTokens) return stop("token_budget_exceeded", `${run.tokens} tokens used of ${limits.maxTokens}`);
  const ms = elapsed(run);
  if (ms > limits.maxWallMs) return stop("latency_budget_exceeded", `${ms} ms used of ${limits.maxWallMs}`);
  if (run.recorder.journal.steps.length >= limits.maxSteps) return stop("step_budget_exhausted", `${limits.maxSteps} steps used`);
  return go(null);
}
