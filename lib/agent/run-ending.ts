// The end of a run (run-agent.ts): what it stops with, and what a person is asked to approve. One
// transaction (the run recorder's recordEnd): the audit events, then one statement with the run's
// end, its trace, the ticket's move and the approval request (lib/approvals/store/run-request-writes.ts) and, while a
// webhook is configured, its notification job; a proposal within the dial gets a recorded system
// approval instead, and its execution is enqueued in that same transaction.
import { randomUUID } from "node:crypto";
import { Prisma } from "../db";
import type { TSqlTx } from "../db/driver";
import { enqueue } from "../jobs/queue";
import { APPROVAL_NOTIFY_JOB, REFUND_EXECUTE_JOB } from "../jobs/definitions";
import { ticketMoveSql } from "../tickets/store/ticket-move-sql";
import type { TAuditInput } from "../audit/record-audit-event";
import type { TPolicySettings } from "../policy/settings";
import { approvalGate } from "../policy/evaluate-refund";
import { APPROVAL_NOTIFICATIONS, notificationJobId } from "../contracts/approval-notification";
import { approvalDigest, approvalOperation, APPROVAL_TTL_MS, type TApprovalOperation } from "../contracts/approval-operation";
import { STATUS_OF_REASON, type TStopReason, type TStopStatus } from "../contracts/reason-codes";
import type { Stop, TBudgets } from "./loop-steps";
import { NOTIFY_SOURCE, NOTIFY_SOURCE_CTE, personRequestCte, systemApprovalCtes } from "../approvals/store/run-request-writes";
import type { TTraceStep } from "./run-journal";
import { RUN_ENDED, type RunRecorder, type TAlongside } from "./store/run-recorder";
import { runCost } from "./run-cost";
import { signDecision } from "../audit/decision-signature";
import type { TAgentState, TProposalView } from "./state";

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
  versions: { agent: string; bundle: string; policy: string; evidence: string; corpus: string };
}

/** A run that stopped, as its end needs it. */
export interface TEnding {
  recorder: RunRecorder;
  ticket: { id: string; bundleVersion: string };
  state: TAgentState;
  stop: Stop;
  tokens: number;
  wallMs: number;
  limits: TBudgets;
  settings: TPolicySettings;
  base: Pick<TRunResult, "runId" | "ticketId" | "mode" | "planner" | "versions">;
}

const TICKET_MOVED = Prisma.sql`EXISTS (SELECT 1 FROM ticket_moved)`;

/** What the run's end writes besides the run: events after run.stopped, CTEs, a job, and what follows. */
type TApprovalWrites = { events: TAuditInput[] } & Omit<TAlongside, "move" | "columns">;

/** The draft a run ends with: none after meeting another customer's order, whose details it may hold. */
function keptDraft(run: TEnding): { draft: string | null; citations: string[] } {
  const kept = run.stop.reason === "order_customer_mismatch" ? null : run.state.draft;
  return { draft: kept?.text ?? null, citations: kept?.citations ?? [] };
}

/** An approval request's columns for an operation: the same for a person's and a system approval. */
function requestOf(run: TEnding, draft: string | null, proposal: TProposalView | null, now: Date) {
  const op: TApprovalOperation = approvalOperation({
    proposal,
    draft,
    policyVersion: run.base.versions.policy,
    bundleVersion: run.ticket.bundleVersion,
    corpusHash: run.base.versions.corpus,
  });
  return {
    id: randomUUID(),
    ticketId: run.ticket.id,
    runId: run.base.runId,
    digest: approvalDigest(op),
    operation: op,
    draft,
    policyVersion: op.policyVersion,
    bundleVersion: op.bundleVersion,
    agentVersion: op.agentVersion,
    corpusHash: op.corpusHash,
    expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS),
    createdAt: now,
  };
}

/**
 * A draft ready for review: a person is asked to approve the exact operation (the reply, and the
 * refund if one was proposed), and the request is announced while a webhook is configured.
 */
function personApproval(
  run: TEnding,
  draft: string | null,
  now: Date,
): { approval: NonNullable<TRunResult["approval"]>; writes: TApprovalWrites } {
  const p = run.state.proposal?.decision === "needs_human" ? run.state.proposal : null;
  const request = requestOf(run, draft, p, now);
  const kind = p ? "refund" : "reply";
  const requiredRole = p?.requiredRole ?? "REVIEWER";
  const approval = { id: null, kind, digest: request.digest, requiredRole, expiresAt: request.expiresAt.toISOString() } as const;
  if (run.base.mode !== "live") return { approval, writes: { events: [] } };
  // Who may approve, and how many people: the gate a person's lowered amount goes through too.
  const approvalsRequired = p ? approvalGate(p.amountCents, run.settings).approvalsRequired : 1;
  const row = { ...request, proposalId: p?.id ?? null, kind, requiredRole, approvalsRequired, status: "pending" };
  const event = APPROVAL_NOTIFICATIONS.waiting;
  return {
    approval: { ...approval, id: request.id },
    writes: {
      events: [],
      // Its "waiting" notification: a job of this same statement, so a request that waits is always
      // announced (lib/approvals/notify-approval.ts).
      ctes: [personRequestCte(row, TICKET_MOVED), NOTIFY_SOURCE_CTE],
      job: {
        name: "notify_job",
        source: NOTIFY_SOURCE,
        job: APPROVAL_NOTIFY_JOB,
        data: { approvalId: request.id, event },
        id: notificationJobId(event, request.id),
      },
    },
  };
}

/**
 * Within the dial: a recorded system approval of exactly this proposal, and its execution enqueued
 * in this same transaction. The executor holds it to the policy's own decision.
 */
function systemApproval(run: TEnding, proposal: TProposalView & { id: string }, draft: string | null, now: Date): TApprovalWrites {
  const request = requestOf(run, draft, proposal, now);
  const { digest } = request;
  // Signed like a person's decision (lib/audit/decision-signature.ts): the executor refuses an unsigned one.
  const signed = signDecision({
    approvalRequestId: request.id,
    digest,
    decision: "approve",
    deciderId: null,
    deciderRole: "REVIEWER",
    automatic: true,
    seat: 1,
    approvalsRequired: 1,
    decidedAt: now,
  });
  const decision = {
    id: randomUUID(),
    approvalRequestId: request.id,
    decision: "approve",
    automatic: true,
    deciderId: null,
    deciderRole: "REVIEWER",
    originalReply: draft,
    digest,
    createdAt: now,
    ...signed,
  };
  return {
    events: [
      {
        actorType: "system",
        actorId: run.base.runId,
        action: "approval.auto_approved",
        subjectType: "proposal",
        subjectId: proposal.id,
        ticketId: run.ticket.id,
        inputs: {
          digest,
          amountCents: proposal.amountCents,
          reasons: proposal.reasons,
          approvalRequestId: request.id,
          signature: signed.signature,
        },
      },
    ],
    ctes: systemApprovalCtes(
      { ...request, proposalId: proposal.id, kind: "refund", requiredRole: "REVIEWER", status: "approved" },
      decision,
      TICKET_MOVED,
    ),
    then: async (tx: TSqlTx) => void (await enqueue(tx, REFUND_EXECUTE_JOB, { approvalId: request.id }, { id: request.id })),
  };
}

/** What the run's end asks of a person, or of the system within the dial. */
function approvalAtEnd(run: TEnding, draft: string | null, now: Date): { approval: TRunResult["approval"]; writes: TApprovalWrites } {
  const { reason } = run.stop;
  if (reason === "draft_ready_for_review") return personApproval(run, draft, now);
  const proposal = run.state.proposal;
  if (run.base.mode === "live" && reason === "refund_auto_approved" && proposal?.decision === "auto_approved" && proposal.id)
    return { approval: null, writes: systemApproval(run, { ...proposal, id: proposal.id }, draft, now) };
  return { approval: null, writes: { events: [] } };
}

/** Ends the run: its records, the ticket's move and its approval in one transaction; then its result. */
export async function finishRun(run: TEnding): Promise<TRunResult> {
  const { stop, base } = run;
  const steps = run.recorder.journal.steps;
  const status = STATUS_OF_REASON[stop.reason];
  const { draft, citations } = keptDraft(run);
  const now = new Date();
  const { approval, writes } = approvalAtEnd(run, draft, now);
  const stopped: TAuditInput = {
    actorType: "agent",
    actorId: base.runId,
    action: "run.stopped",
    subjectType: "ticket",
    subjectId: run.ticket.id,
    ticketId: run.ticket.id,
    inputs: {
      mode: base.mode,
      status,
      reason: stop.reason,
      detail: stop.detail,
      steps: steps.length,
      tokens: run.tokens,
      wallMs: run.wallMs,
      citations,
    },
  };
  const move =
    base.mode === "live"
      ? ticketMoveSql({ ticketId: run.ticket.id, move: "finish_run", to: status, reason: stop.reason, when: RUN_ENDED })
      : null;
  const end = {
    status,
    reason: stop.reason,
    stepsUsed: steps.length,
    tokensUsed: run.tokens,
    costUsd: runCost(steps),
    elapsedMs: run.wallMs,
    evidence: run.state.evidence,
    citations,
    draft,
    finishedAt: now,
  };
  await run.recorder.recordEnd([stopped, ...writes.events], end, { ...writes, move });
  return {
    ...base,
    status,
    reason: stop.reason,
    path: steps.map((s) => s.action),
    steps,
    citations,
    draft,
    proposal: run.state.proposal,
    approval,
    budgets: { limits: run.limits, used: { steps: steps.length, tokens: run.tokens, wallMs: run.wallMs } },
  };
}
