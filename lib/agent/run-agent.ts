// The agent loop. The planner proposes; the runtime holds the authority. Each step, in this order:
//   1. validate the decision          (blocked: invalid_decision … invalid_argument_types)
//   2. validate the transition        (blocked: invalid_state_transition)
//   3. ask the policy gate            (deny → blocked: policy_denied; rewrite; escalate → a person)
//   4. run the tool with a timeout    (needs_human: tool_timeout, tool_error; order_customer_mismatch
//                                      when the order is not the ticket's customer's)
//   5. validate the observation       (needs_human: tool_invalid_output)
//   6. record a trace event
//   7. check budgets                  (needs_human: step/token/latency budget)
// Every tool call and every stop is on the audit chain before it takes effect. A bypassed ticket
// never reaches this loop: no planner call, no tool call, no trace event.
//
// A live run takes its ticket through the lifecycle (start_run, then finish_run) and supersedes any
// request still pending from an older run. Every run holds a lease that this process renews while
// it works; if the process dies, the lease runs out and the sweep (sweep-runs.ts) marks the run
// interrupted and hands its ticket to a person.
//
// Round trips (lib/db/round-trips.integration.test.ts holds the cracked tablet's path to its budget):
// one statement reads the ticket, the settings and the order the ticket names; one transaction
// starts the run (its audit event, then the ticket's move, the superseded request and the run row in
// one statement); steps that only read are journaled (run-journal.ts) and written with the run's
// next write; one transaction ends it (the audit events, then the run, its trace, the ticket's move,
// the approval request and, while a webhook is configured, its notification job in one statement). Each of these transactions takes the ticket's audit
// stream first, as every audited write does, and the rows after it.
import { randomUUID } from "node:crypto";
import type { Db } from "../db";
import { db as defaultDb, Prisma } from "../db";
import { env, intakeBundleKey } from "../env";
import { enqueue, QUEUES } from "../jobs/queue";
import { moveRefusal } from "../tickets/lifecycle";
import { ticketMoveSql } from "../tickets/ticket-move-sql";
import { recordAuditEvent, type TAuditInput } from "../audit/record-audit-event";
import { admitTicket } from "../intake/admit-ticket";
import { routeClaimId } from "../intake/route-signature";
import { evaluateAction, type TActionDecision } from "../policy/evaluate-action";
import { policySettingsFrom, policyVersion, type TPolicySettings } from "../policy/settings";
import { approvalGate } from "../policy/evaluate-refund";
import { APPROVAL_NOTIFICATIONS, notificationJobId } from "../contracts/approval-notification";
import { approvalDigest, approvalOperation, APPROVAL_TTL_MS, type TApprovalOperation } from "../contracts/approval-operation";
import { validateDecision } from "./validate-decision";
import { transitionProblem } from "./transitions";
import { agentManifest, type TAgentManifest } from "../contracts/manifest";
import type { TPlanner } from "./planner";
import { STATUS_OF_REASON, type TStopReason, type TStopStatus } from "../contracts/reason-codes";
import { rulePlanner } from "./rule-planner";
import type { TTraceStep } from "./run-journal";
import { readTicket } from "./read-run-ticket";
import { RUN_ENDED, RunRecorder } from "./run-recorder";
import {
  NOTIFY_SOURCE,
  NOTIFY_SOURCE_CTE,
  personRequestCte,
  SUPERSEDED_COUNT,
  supersedePendingCte,
  systemApprovalCtes,
} from "./run-approval-writes";
import { initialState, type TAgentState, type TDraft, type TOrderObservation, type TProposalView } from "./state";
import { DEFAULT_TOOLS, OrderCustomerMismatch, TOOL_OUTPUTS, WRITING_TOOLS, type TToolSet } from "./tools";
import { draftProblem } from "./draft-invariants";
import { traceStep } from "./step-telemetry";
import { enterContext } from "../observability/context";
import type { TEvidenceAnswer } from "../evidence/answer-policy-question";

export type { TTraceStep } from "./run-journal";
export { LEASE_OWNER, RunInterrupted } from "./run-recorder";

export type TBudgets = TAgentManifest["budgets"];

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
}

export interface TRunResult {
  runId: string;
  ticketId: string;
  mode: "live" | "simulate";
  planner: string;
  status: TStopStatus;
  reason: TStopReason;
  /** The actions the planner asked for, in order, including refused ones. */
  path: string[];
  steps: TTraceStep[];
  citations: string[];
  draft: string | null;
  proposal: TProposalView | null;
  approval: { id: string | null; kind: "refund" | "reply"; digest: string; requiredRole: string; expiresAt: string } | null;
  budgets: { limits: TBudgets; used: { steps: number; tokens: number; wallMs: number } };
  versions: { agent: string; bundle: string; policy: string; evidence: string };
}

class Stop {
  constructor(
    readonly reason: TStopReason,
    readonly detail: string,
  ) {}
}

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

function handoffReason(state: TAgentState): TStopReason {
  if (state.evidence?.status === "abstain") return state.evidence.reason;
  if (state.order?.found === false) return "missing_order";
  if (state.draft) return "draft_ready_for_review";
  return "planner_requested_handoff";
}

export async function runAgent(input: TRunAgentInput): Promise<TRunResult> {
  const client = input.client ?? defaultDb();
  const mode = input.mode ?? "live";
  const planner = input.planner ?? rulePlanner;
  const manifest = agentManifest();
  const limits: TBudgets = { ...manifest.budgets, ...input.budgets };
  const tools: TToolSet = { ...DEFAULT_TOOLS, ...input.tools };

  const ticket = await readTicket(client, input.ticketId);
  if (!ticket) throw moveRefusal("start_run", null);
  const settings = policySettingsFrom(ticket.settings);
  // Every pinned identity from the manifest, the one source the intake side reads too.
  const versions = {
    agent: manifest.agentVersion,
    bundle: manifest.intakeBundle,
    policy: policyVersion(settings),
    evidence: manifest.evidenceServiceVersion,
  };
  const runId = randomUUID();
  // Every line logged from here to the run's end carries the run and its ticket; the caller's do not.
  enterContext({ runId, ticketId: ticket.id });
  const base = {
    runId,
    ticketId: ticket.id,
    mode,
    planner: planner.id,
    versions,
  };
  const runRow = {
    id: runId,
    ticketId: ticket.id,
    mode,
    planner: planner.id,
    agentVersion: versions.agent,
    bundleVersion: ticket.bundleVersion,
    policyVersion: versions.policy,
    // The manifest as it was, and which planner (and model) this run used.
    manifest: { ...manifest, planner: { id: planner.id, model: input.model ?? null } },
    budgets: limits,
    startedById: input.startedBy ?? null,
    batchId: input.batchId ?? null,
    startedAt: new Date(),
  };
  const recorder = new RunRecorder(client, runId, input.leaseMs ?? env().RUN_LEASE_SECONDS * 1000);
  const ticketEvent = { actorType: "agent", actorId: runId, subjectType: "ticket", subjectId: ticket.id, ticketId: ticket.id } as const;

  // The admission gate, checked again at the loop's door: a bypassed ticket gets no planner and no tool.
  const admission = admitTicket(
    { ticketId: routeClaimId(ticket), route: ticket.route, bundleVersion: ticket.bundleVersion, signature: ticket.routeSignature },
    { bundleVersion: manifest.intakeBundle, key: intakeBundleKey() },
  );
  if (admission.admission === "bypassed") {
    const row = { ...runRow, status: "bypassed", reason: admission.reason, finishedAt: new Date() };
    // The ticket's move and the run's row in one statement; a refused move writes neither.
    const move = mode === "live" ? ticketMoveSql({ ticketId: ticket.id, move: "bypass", reason: admission.reason }) : null;
    await recorder.recordBypass({ ...ticketEvent, action: "run.bypassed", inputs: { mode }, policyDecision: admission }, row, { move });
    return {
      ...base,
      status: "bypassed",
      reason: admission.reason,
      path: [],
      steps: [],
      citations: [],
      draft: null,
      proposal: null,
      approval: null,
      budgets: { limits, used: { steps: 0, tokens: 0, wallMs: 0 } },
    };
  }

  const started = { ...ticketEvent, action: "run.started", inputs: { mode, planner: planner.id, versions, budgets: limits } } as const;
  // The ticket's move is the check: a resolved ticket, or one another live run holds, refuses here
  // and nothing of the run is written. The pending request of an older run is superseded in the
  // same statement: a run ending on this ticket adds its request under the ticket's audit stream,
  // locked by the event above, so this statement's snapshot misses none.
  await recorder.recordStart(
    started,
    runRow,
    mode !== "live"
      ? { move: null }
      : {
          move: ticketMoveSql({ ticketId: ticket.id, move: "start_run", reason: null }),
          ctes: [supersedePendingCte(ticket.id)],
          columns: SUPERSEDED_COUNT,
          then: async (tx, row) => {
            const superseded = Number(row.superseded);
            if (superseded) await recordAuditEvent(tx, { ...ticketEvent, action: "approval.superseded", inputs: { count: superseded } });
          },
        },
  );
  // Renewed while this process works; a process that dies stops renewing it.
  const releaseLease = recorder.holdLease();
  const journal = recorder.journal;
  try {
    const state = initialState({
      id: ticket.id,
      number: ticket.number,
      subject: ticket.subject,
      body: ticket.body,
      customerEmail: ticket.customerEmail,
      orderRef: ticket.orderRef,
    });
    const ticketOrder = ticket.orderRef === null ? undefined : { ref: ticket.orderRef, row: ticket.order };
    const steps = journal.steps;
    const started = performance.now();
    let tokens = 0;
    const elapsed = () => Math.round(performance.now() - started);
    const runEvent = { actorType: "agent", actorId: runId, subjectType: "run", subjectId: runId, ticketId: ticket.id } as const;

    const record = (step: TTraceStep) => {
      journal.step(step);
      traceStep(runId, step);
      state.history.push({ action: step.action, outcome: step.outcome });
    };

    let stop: Stop | undefined;
    for (;;) {
      const stepNo = steps.length + 1;
      if (steps.length >= limits.maxSteps) {
        stop = new Stop("step_budget_exhausted", `${limits.maxSteps} steps used`);
        break;
      }

      const stepStarted = performance.now();
      let output: Awaited<ReturnType<TPlanner["decide"]>> | typeof TIMEOUT;
      try {
        output = await withTimeout((signal) => planner.decide(structuredClone(state), signal), limits.maxWallMs - elapsed());
      } catch (error) {
        stop = new Stop("planner_error", error instanceof Error ? error.message : String(error));
        break;
      }
      if (output === TIMEOUT) {
        stop = new Stop("latency_budget_exceeded", `the planner did not answer within the ${limits.maxWallMs} ms budget`);
        break;
      }
      const usage = {
        promptTokens: Math.max(0, Math.floor(Number(output?.usage?.promptTokens) || 0)),
        completionTokens: Math.max(0, Math.floor(Number(output?.usage?.completionTokens) || 0)),
      };
      tokens += usage.promptTokens + usage.completionTokens;
      const meta = {
        ...usage,
        model: typeof output?.model === "string" ? output.model : null,
        promptVersion: typeof output?.promptVersion === "string" ? output.promptVersion : null,
      };
      const raw = output?.decision;
      const rawAction =
        typeof (raw as { action?: unknown })?.action === "string" ? String((raw as { action: string }).action).slice(0, 80) : "(invalid)";
      const rawArgs = (raw as { args?: unknown })?.args ?? null;

      // A refused decision changes nothing: its event is journaled, and written with the run's end.
      const blocked = (
        reason: TStopReason,
        detail: string,
        action = rawAction,
        args: unknown = rawArgs,
        policyDecision: TActionDecision | null = null,
      ) => {
        journal.event({
          ...runEvent,
          action: "decision.blocked",
          inputs: { step: stepNo, action, args, detail },
          policyDecision: { reason },
        });
        record({
          step: stepNo,
          action,
          args,
          outcome: "blocked",
          reason,
          result: { detail },
          policyDecision,
          latencyMs: Math.round(performance.now() - stepStarted),
          ...meta,
        });
        return new Stop(reason, detail);
      };

      // 1. the decision itself
      const check = validateDecision(raw, manifest.forbiddenAutonomousActions);
      if (!check.ok) {
        stop = blocked(check.reason, check.detail);
        break;
      }
      let action = check.action;

      // 2. the transition
      const problem = transitionProblem(action, state);
      if (problem) {
        stop = blocked("invalid_state_transition", problem, action.action, action.args);
        break;
      }

      // 3. the policy gate
      const gate = evaluateAction(action, { orderRef: ticket.orderRef });
      if (gate.decision === "deny") {
        stop = blocked("policy_denied", `policy denied ${action.action}: ${gate.reasons.join(", ")}`, action.action, action.args, gate);
        break;
      }
      let outcome: TTraceStep["outcome"] = "ok";
      if (gate.decision === "escalate") {
        outcome = "escalated";
        action = { action: "request_human_approval", args: { reason: `Escalated by policy: ${gate.reasons.join(", ")}` } };
      } else if (gate.decision === "rewrite") {
        outcome = "rewritten";
        action = gate.action;
      }

      // 4. the tool, after its call is on the audit chain: a tool that writes finds every event of
      // the run so far written before it starts; a tool that only reads has its event written with
      // the run's next write.
      journal.event({
        ...runEvent,
        action: "tool.called",
        inputs: { step: stepNo, action: action.action, args: action.args, mode },
        policyDecision: gate,
      });
      if (WRITING_TOOLS.has(action.action)) await recorder.writeEvents();
      let observation: unknown;
      let failure: Stop | null = null;
      const toolUsage = { promptTokens: 0, completionTokens: 0, model: null as string | null, promptVersion: null as string | null };
      const reportUsage = (u: { promptTokens: number; completionTokens: number; model?: string; promptVersion?: string }) => {
        toolUsage.promptTokens += Math.max(0, Math.floor(u.promptTokens || 0));
        toolUsage.completionTokens += Math.max(0, Math.floor(u.completionTokens || 0));
        toolUsage.model = u.model ?? toolUsage.model;
        toolUsage.promptVersion = u.promptVersion ?? toolUsage.promptVersion;
      };
      try {
        const result = await withTimeout(
          (signal) =>
            tools[action.action](action.args, {
              client,
              state: structuredClone(state),
              runId,
              mode,
              settings,
              signal,
              reportUsage,
              ticketOrder,
            }),
          Math.min(limits.toolTimeoutMs, Math.max(0, limits.maxWallMs - elapsed())),
        );
        if (result === TIMEOUT) {
          failure =
            elapsed() >= limits.maxWallMs
              ? new Stop("latency_budget_exceeded", "the time budget ran out during a tool call")
              : new Stop("tool_timeout", `${action.action} did not answer within ${limits.toolTimeoutMs} ms`);
        } else {
          observation = result;
        }
      } catch (error) {
        // Another customer's order: a person takes the ticket, and the trace says only that.
        if (error instanceof OrderCustomerMismatch) failure = new Stop("order_customer_mismatch", error.message);
        else failure = new Stop("tool_error", error instanceof Error ? error.message : String(error));
      }
      tokens += toolUsage.promptTokens + toolUsage.completionTokens;

      // 5. the observation: its schema; then a draft, whichever tool wrote it, against what this run
      // retrieved and looked up (its citations and numbers). A draft that fails is out of contract.
      let parsed: unknown;
      if (!failure) {
        const valid = TOOL_OUTPUTS[action.action].safeParse(observation);
        if (valid.success) parsed = valid.data;
        else
          failure = new Stop(
            "tool_invalid_output",
            `${action.action} returned an invalid observation: ${valid.error.issues[0]?.message ?? "?"}`,
          );
      }
      if (!failure && action.action === "draft_reply") {
        const problem = draftProblem(parsed as TDraft, state);
        if (problem) failure = new Stop("tool_invalid_output", problem);
      }

      // 6. the trace
      const failureOutcome = (reason: TStopReason): TTraceStep["outcome"] =>
        reason === "tool_timeout" || reason === "latency_budget_exceeded"
          ? "timeout"
          : reason === "tool_error"
            ? "error"
            : reason === "order_customer_mismatch"
              ? "blocked"
              : "invalid_output";
      record({
        step: stepNo,
        action: action.action,
        args: action.args,
        outcome: failure ? failureOutcome(failure.reason) : outcome,
        reason: failure?.reason ?? null,
        result: failure ? { detail: failure.detail } : parsed,
        policyDecision: gate,
        latencyMs: Math.round(performance.now() - stepStarted),
        ...meta,
        promptTokens: meta.promptTokens + toolUsage.promptTokens,
        completionTokens: meta.completionTokens + toolUsage.completionTokens,
        model: meta.model ?? toolUsage.model,
        promptVersion: meta.promptVersion ?? toolUsage.promptVersion,
      });
      if (failure) {
        stop = failure;
        break;
      }

      // The state changes only from validated observations.
      switch (action.action) {
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
          stop = new Stop(
            outcome === "escalated" ? "planner_requested_handoff" : handoffReason(state),
            (parsed as { reason: string }).reason,
          );
          break;
      }
      if (action.action === "request_human_approval") break;
      if (state.proposal?.decision === "denied") {
        stop = new Stop("policy_denied", `refund proposal denied: ${state.proposal.reasons.join(", ")}`);
        break;
      }
      if (state.proposal?.decision === "auto_approved") {
        stop = new Stop("refund_auto_approved", "within the autonomy dial");
        break;
      }

      // 7. budgets
      if (tokens > limits.maxTokens) {
        stop = new Stop("token_budget_exceeded", `${tokens} tokens used of ${limits.maxTokens}`);
        break;
      }
      if (elapsed() > limits.maxWallMs) {
        stop = new Stop("latency_budget_exceeded", `${elapsed()} ms used of ${limits.maxWallMs}`);
        break;
      }
    }

    return await finish({
      recorder,
      runId,
      ticket,
      mode,
      state,
      stop: stop!,
      tokens,
      wallMs: elapsed(),
      limits,
      versions,
      settings,
      base,
    });
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

async function finish(ctx: {
  recorder: RunRecorder;
  runId: string;
  ticket: { id: string; bundleVersion: string };
  mode: "live" | "simulate";
  state: TAgentState;
  stop: Stop;
  tokens: number;
  wallMs: number;
  limits: TBudgets;
  versions: TRunResult["versions"];
  settings: TPolicySettings;
  base: Pick<TRunResult, "runId" | "ticketId" | "mode" | "planner" | "versions">;
}): Promise<TRunResult> {
  const { recorder, runId, ticket, mode, state, stop, versions } = ctx;
  const live = mode === "live";
  const steps = recorder.journal.steps;
  const status = STATUS_OF_REASON[stop.reason];
  // A run that met another customer's order keeps no draft, whatever wrote one before: it may hold
  // that order's details.
  const kept = stop.reason === "order_customer_mismatch" ? null : state.draft;
  const draft = kept?.text ?? null;
  const citations = kept?.citations ?? [];
  const now = new Date();

  // The exact operation an approval covers: the reply, and the refund if one was proposed.
  const operationOf = (p: TProposalView | null) =>
    approvalOperation({ proposal: p, draft, policyVersion: versions.policy, bundleVersion: ticket.bundleVersion });
  /** An approval request's columns for an operation: the same for a person's and a system approval. */
  const requestOf = (op: TApprovalOperation, digest: string) => ({
    id: randomUUID(),
    ticketId: ticket.id,
    runId,
    digest,
    operation: op,
    draft,
    policyVersion: op.policyVersion,
    bundleVersion: op.bundleVersion,
    agentVersion: op.agentVersion,
    expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS),
    createdAt: now,
  });

  const events: TAuditInput[] = [
    {
      actorType: "agent",
      actorId: runId,
      action: "run.stopped",
      subjectType: "ticket",
      subjectId: ticket.id,
      ticketId: ticket.id,
      inputs: {
        mode,
        status,
        reason: stop.reason,
        detail: stop.detail,
        steps: steps.length,
        tokens: ctx.tokens,
        wallMs: ctx.wallMs,
        citations,
      },
    },
  ];
  const moved = Prisma.sql`EXISTS (SELECT 1 FROM ticket_moved)`;
  const move = live ? ticketMoveSql({ ticketId: ticket.id, move: "finish_run", to: status, reason: stop.reason, when: RUN_ENDED }) : null;
  const end = {
    status,
    reason: stop.reason,
    stepsUsed: steps.length,
    tokensUsed: ctx.tokens,
    elapsedMs: ctx.wallMs,
    evidence: state.evidence,
    citations,
    draft,
    finishedAt: now,
  };
  // The statement of the run's end: the run, its trace and the ticket's move (the recorder's), then these.
  const ctes: Prisma.Sql[] = [];

  // A person is asked to approve the exact operation.
  let approval: TRunResult["approval"] = null;
  let personRequest: ReturnType<typeof requestOf> | null = null;
  if (stop.reason === "draft_ready_for_review") {
    const p = state.proposal?.decision === "needs_human" ? state.proposal : null;
    const operation = operationOf(p);
    personRequest = requestOf(operation, approvalDigest(operation));
    approval = {
      id: null,
      kind: p ? "refund" : "reply",
      digest: personRequest.digest,
      requiredRole: p?.requiredRole ?? "REVIEWER",
      expiresAt: personRequest.expiresAt.toISOString(),
    };
    // Who may approve, and how many people: the gate a person's lowered amount goes through too.
    const approvalsRequired = p ? approvalGate(p.amountCents, ctx.settings).approvalsRequired : 1;
    if (live) {
      ctes.push(
        personRequestCte(
          {
            ...personRequest,
            proposalId: p?.id ?? null,
            kind: approval.kind,
            requiredRole: approval.requiredRole,
            approvalsRequired,
            status: "pending",
          },
          moved,
        ),
      );
      // Its "waiting" notification, only while a webhook is configured: a job of this same statement,
      // so a request that waits is always announced (lib/approvals/notify-approval.ts).
      ctes.push(NOTIFY_SOURCE_CTE);
    }
  }

  // Within the dial: a recorded system approval of exactly this proposal, and its execution enqueued
  // in this same transaction. The executor holds it to the policy's own decision.
  const autoApproved =
    live && stop.reason === "refund_auto_approved" && state.proposal?.decision === "auto_approved" ? state.proposal : null;
  let systemRequest: ReturnType<typeof requestOf> | null = null;
  if (autoApproved?.id) {
    const operation = operationOf(autoApproved);
    systemRequest = requestOf(operation, approvalDigest(operation));
    const { digest } = systemRequest;
    events.push({
      actorType: "system",
      actorId: runId,
      action: "approval.auto_approved",
      subjectType: "proposal",
      subjectId: autoApproved.id,
      ticketId: ticket.id,
      inputs: { digest, amountCents: autoApproved.amountCents, reasons: autoApproved.reasons },
    });
    ctes.push(
      ...systemApprovalCtes(
        { ...systemRequest, proposalId: autoApproved.id, kind: "refund", requiredRole: "REVIEWER", status: "approved" },
        {
          id: randomUUID(),
          approvalRequestId: systemRequest.id,
          decision: "approve",
          automatic: true,
          deciderId: null,
          deciderRole: "REVIEWER",
          originalReply: draft,
          digest,
          createdAt: now,
        },
        moved,
      ),
    );
  }

  const event = APPROVAL_NOTIFICATIONS.waiting;
  await recorder.recordEnd(events, end, {
    move,
    ctes,
    job:
      live && personRequest
        ? {
            name: "notify_job",
            source: NOTIFY_SOURCE,
            queue: QUEUES.approvalNotify,
            data: { approvalId: personRequest.id, event },
            id: notificationJobId(event, personRequest.id),
          }
        : null,
    then: async (tx) => {
      if (systemRequest) await enqueue(tx, QUEUES.refundExecute, { approvalId: systemRequest.id }, { id: systemRequest.id });
    },
  });
  if (approval && live) approval.id = personRequest!.id;

  return {
    ...ctx.base,
    status,
    reason: stop.reason,
    path: steps.map((s) => s.action),
    steps,
    citations,
    draft,
    proposal: state.proposal,
    approval,
    budgets: { limits: ctx.limits, used: { steps: steps.length, tokens: ctx.tokens, wallMs: ctx.wallMs } },
  };
}
