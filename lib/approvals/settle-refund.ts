// What the refund job does with an approved refund, in atomic phases around the one call that leaves
// the building (the payment provider's), each phase a recovery point for the next:
//
//   1. one transaction: the executor's checks and the ledger row under the key derived from the
//      approval, with its audit event, and the executor's answer recorded on the approval. With the
//      ledger alone (`ledger-only`, the demo) the row is the whole effect: it is written succeeded and
//      the reply is released and the ticket moved in this same transaction, as always. With a
//      provider the row is written `requested`, and nothing is told to anyone yet;
//   2. no transaction: the provider is asked to refund, with the row's key as its idempotency key;
//   3. one transaction: what the provider answered is recorded on the row (recordProviderReport) –
//      succeeded releases the reply and resolves the ticket, failed or canceled returns the ticket to a
//      person with the provider's reason and releases nothing (a reply released at an earlier success
//      and not yet sent is withdrawn), pending waits (for the provider's event
//      or the reconciliation).
//
// A crash anywhere is settled by running the job again: phase 1 finds its outcome recorded and the
// row still `requested`, and phase 2 asks again with the same key, which the provider answers with
// the refund it already made – never a second one. An answer that never came (a timeout, a 5xx) is
// an error the job queue retries the same way; the reconciliation (reconcile-refunds.ts) catches
// whatever the job queue gave up on.
import { db as defaultDb, isUniqueViolation, type Db, type DbTx } from "../db";
import { prismaSqlTx } from "../db/driver";
import { auditAppendArgument, recordAuditEvent, type ActorType } from "../audit/record-audit-event";
import { executeRefundOn } from "../ledger/execute-approved-refund";
import { moveRefundState } from "../ledger/store/ledger-store";
import type { TExecutionOutcome, TLifecycleReason, TRefundFailureReason, TRefundState } from "../contracts/reason-codes";
import { moveTicket, type TTicketMove } from "../tickets/lifecycle";
import { isAppError } from "../contracts/app-error";
import { customerReply } from "../contracts/customer-reply";
import { loadRefundProvider } from "../payments/payment-settings";
import { freshReadUnderLock, orderSource } from "../orders/order-source";
import { RefundRefused, type TRefundProvider, type TRefundRequest } from "../payments/refund-provider";
import { lockForSettlement, recordExecutionOutcome, releaseReply, withdrawReply } from "./store/approval-store";
import { enqueueDelivery, replyRelease } from "./reply-release";

export const REFUND_WORKER_ACTOR = { type: "system", id: "refund-worker" } as const;

export interface TSettlement {
  outcome: TExecutionOutcome;
  /** False when an earlier run had already recorded the executor's answer. */
  settledNow: boolean;
  replyReleased: boolean;
  /** The ledger row's state after this run; null when no row was written (the refund was blocked). */
  refundState: TRefundState | null;
}

/** The outcomes after which a ledger row exists for the approval. */
export function refundHappened(outcome: string | null): boolean {
  return outcome === "refund_created" || outcome === "duplicate_ignored";
}

/** What the provider said about a refund, as recorded on its ledger row. */
export interface TProviderReport {
  providerRefundId: string | null;
  state: TRefundState;
  failureReason: TRefundFailureReason | null;
  /** Where the report came from: the settlement's call, an event, the reconciliation. */
  source: "call" | "event" | "reconciliation";
}

type TPhaseOne = { done: TSettlement } | { outcome: TExecutionOutcome; settledNow: boolean; call: TRefundRequest & { entryId: string } };

export async function settleApprovedRefund(input: { approvalId: string; client?: Db; provider?: TRefundProvider }): Promise<TSettlement> {
  const client = input.client ?? defaultDb();
  const provider = input.provider ?? (await loadRefundProvider(client));
  const first = await recordRefund(client, input.approvalId, provider);
  if ("done" in first) return first.done;
  const report = await askProvider(provider, first.call);
  const recorded = await recordProviderReport(client, { entryId: first.call.entryId, report, actor: REFUND_WORKER_ACTOR });
  return { outcome: first.outcome, settledNow: first.settledNow, replyReleased: recorded.replyReleased, refundState: recorded.state };
}

/** Phase 2: the provider's answer, or its refusal as a failed refund; an unknown answer is thrown, to be asked again. */
async function askProvider(provider: TRefundProvider, call: TRefundRequest): Promise<TProviderReport> {
  try {
    const refund = await provider.createRefund(call);
    return { providerRefundId: refund.id, state: refund.state, failureReason: refund.failureReason, source: "call" };
  } catch (error) {
    if (error instanceof RefundRefused) return { providerRefundId: null, state: "failed", failureReason: error.reason, source: "call" };
    throw error;
  }
}

/** Phase 1, in one transaction: see the top of the file. */
async function recordRefund(client: Db, approvalId: string, provider: TRefundProvider, attempt = 1): Promise<TPhaseOne> {
  try {
    return await client.$transaction((tx) => recordRefundIn(tx, approvalId, provider), { timeout: 20_000, maxWait: 20_000 });
  } catch (error) {
    // A concurrent execution of the same approval won the ledger key: it settles the approval.
    if (isUniqueViolation(error) && attempt === 1) return recordRefund(client, approvalId, provider, 2);
    throw error;
  }
}

async function recordRefundIn(tx: DbTx, approvalId: string, provider: TRefundProvider): Promise<TPhaseOne> {
  // Settlements of one approval queue here; whoever comes second finds the outcome recorded.
  const locked = await lockForSettlement(prismaSqlTx(tx), approvalId);
  if (!locked) throw new Error(`settleApprovedRefund: no approval ${approvalId}`);
  if (locked.executionOutcome) {
    const outcome = locked.executionOutcome as TExecutionOutcome;
    const entry = await ledgerEntryOf(tx, { approvalId });
    // The recovery point of a run that stopped before the provider's answer was recorded: ask again.
    if (entry?.state === "requested" && entry.provider !== "ledger-only")
      return { outcome, settledNow: false, call: callOf(entry, approvalId) };
    return { done: { outcome, settledNow: false, replyReleased: false, refundState: entry?.state ?? null } };
  }

  // From a shop (ORDER_SOURCE=shopify), the order is read again under its lock before anything is
  // decided: a refund made in the shop since the approval is counted, and one that no longer fits is refused.
  const source = orderSource();
  const result = await executeRefundOn(prismaSqlTx(tx), {
    approvalId,
    actor: REFUND_WORKER_ACTOR,
    provider: provider.name,
    ...(source.kind === "internal" ? {} : { refreshOrder: (orderId: string) => freshReadUnderLock(tx, orderId, source) }),
  });
  // A job for a request still waiting (one of two approvals, a replayed or forged job): the
  // refusal is audited, but nothing is settled – the request stays decidable and its ticket
  // where it is, and the second approval's own job settles it.
  if (locked.status === "pending") return { done: { outcome: result.outcome, settledNow: false, replyReleased: false, refundState: null } };
  const request = await recordExecutionOutcome(tx, approvalId, result.outcome, new Date());
  if (!refundHappened(result.outcome)) {
    await settleTicket(tx, request.ticketId, "refund_blocked");
    return { done: { outcome: result.outcome, settledNow: true, replyReleased: false, refundState: null } };
  }
  const entry = await ledgerEntryOf(tx, { approvalId, idempotencyKey: result.idempotencyKey });
  if (!entry) throw new Error(`settleApprovedRefund: ${result.outcome} but no ledger row for approval ${approvalId}`);
  if (entry.state === "requested") return { outcome: result.outcome, settledNow: true, call: callOf(entry, approvalId) };
  // The ledger alone: the row is the refund, written succeeded – tell the customer now, as always.
  const replyReleased = await applyState(tx, request, entry.state, result.outcome);
  return { done: { outcome: result.outcome, settledNow: true, replyReleased, refundState: entry.state } };
}

type TEntry = NonNullable<Awaited<ReturnType<typeof ledgerEntryOf>>>;

function ledgerEntryOf(tx: DbTx, by: { approvalId: string; idempotencyKey?: string | null }) {
  return tx.ledgerEntry.findFirst({
    where: by.idempotencyKey ? { idempotencyKey: by.idempotencyKey } : { approvalRequestId: by.approvalId },
    select: {
      id: true,
      idempotencyKey: true,
      provider: true,
      state: true,
      amountCents: true,
      currency: true,
      approvalRequestId: true,
      order: { select: { paymentReference: true } },
    },
  });
}

function callOf(entry: TEntry, approvalId: string): TRefundRequest & { entryId: string } {
  return {
    entryId: entry.id,
    idempotencyKey: entry.idempotencyKey,
    paymentReference: entry.order.paymentReference,
    amountCents: entry.amountCents,
    currency: entry.currency,
    approvalId,
  };
}

type TSettledRequest = Awaited<ReturnType<typeof recordExecutionOutcome>>;

/**
 * What a refund's state means for its ticket and reply: succeeded releases the approved reply (once)
 * and resolves the ticket; failed or canceled returns the ticket to a person (refund_failed) and
 * releases nothing; requested, pending and requires_action wait. Answers whether a reply went out.
 */
async function applyState(tx: DbTx, request: TSettledRequest, state: TRefundState, outcome: string): Promise<boolean> {
  if (state === "failed" || state === "canceled") {
    await settleTicket(tx, request.ticketId, "refund_failed", await withdrawnOrSent(tx, request));
    return false;
  }
  if (state !== "succeeded") return false;
  let released = false;
  // The reply as the last person to approve left it (on a two-person request the second approver saw
  // the first one's edit).
  const draft = request.decisions.find((d) => d.editedReply !== null)?.editedReply ?? request.draft;
  const reply = draft ? customerReply(draft) : null;
  if (reply && !request.outbox) {
    await recordAuditEvent(tx, {
      actorType: REFUND_WORKER_ACTOR.type,
      actorId: REFUND_WORKER_ACTOR.id,
      action: "reply.released",
      subjectType: "approval",
      subjectId: request.id,
      ticketId: request.ticketId,
      inputs: { outcome, replyLength: reply.length },
    });
    // The agent drafted it (a person may have edited it): the disclosure, when the setting asks.
    const release = replyRelease(reply, true);
    await releaseReply(tx, { ticketId: request.ticketId, approvalRequestId: request.id, ...release });
    await enqueueDelivery(tx, release.delivery.id);
    released = true;
  }
  await settleTicket(tx, request.ticketId, "refund_executed");
  return released;
}

/**
 * A refund that fails after it succeeded (card refunds can, days later) finds its reply released. Not
 * yet sent, it is withdrawn – never delivered, gone from the outbox – and the customer hears nothing;
 * sent (or possibly sent: an attempt started), the ticket's reason says the customer needs a correction.
 */
async function withdrawnOrSent(tx: DbTx, request: TSettledRequest): Promise<"refund_failed" | "refund_failed_after_reply"> {
  if (!request.outbox) return "refund_failed";
  if (!(await withdrawReply(tx, request.outbox.id, "refund_failed"))) return "refund_failed_after_reply";
  await recordAuditEvent(tx, {
    actorType: REFUND_WORKER_ACTOR.type,
    actorId: REFUND_WORKER_ACTOR.id,
    action: "reply.withdrawn",
    subjectType: "approval",
    subjectId: request.id,
    ticketId: request.ticketId,
    inputs: { reason: "refund_failed" },
  });
  return "refund_failed";
}

/**
 * Moves the ticket after its refund. A ticket already where the move would take it, or resolved (an
 * approval decided before the lifecycle existed, or a refund that failed after a person resolved the
 * ticket by hand meanwhile) has nothing to move.
 */
async function settleTicket(
  tx: DbTx,
  ticketId: string,
  move: Extract<TTicketMove, "refund_executed" | "refund_blocked" | "refund_failed">,
  reason: Extract<TLifecycleReason, "refund_blocked" | "refund_failed" | "refund_failed_after_reply"> | null = move === "refund_executed"
    ? null
    : move,
) {
  try {
    await moveTicket(tx, { ticketId, move, ...(reason ? { reason } : {}) });
  } catch (error) {
    if (isAppError(error, "ticket_resolved")) return;
    if (move === "refund_failed" && isAppError(error, "invalid_ticket_state")) return;
    throw error;
  }
}

/**
 * Phase 3, and every later report (a provider event, the reconciliation), in one transaction: the
 * provider's refund id and state on the ledger row, forward only, with its audit event – and, when
 * the state moved, what the move means for the ticket and the reply (applyState). A report that moves
 * nothing (repeated, stale, backwards) changes nothing at all.
 */
export async function recordProviderReport(
  client: Db,
  input: { entryId: string; report: TProviderReport; actor: { type: ActorType; id: string } },
): Promise<{ moved: boolean; state: TRefundState | null; replyReleased: boolean }> {
  return client.$transaction(
    async (tx) => {
      const entry = await tx.ledgerEntry.findUnique({
        where: { id: input.entryId },
        select: { id: true, idempotencyKey: true, provider: true, providerRefundId: true, approvalRequestId: true },
      });
      if (!entry) return { moved: false, state: null, replyReleased: false };
      const request = entry.approvalRequestId
        ? await tx.approvalRequest.findUnique({
            where: { id: entry.approvalRequestId },
            include: { decisions: { orderBy: { seat: "desc" } }, outbox: { select: { id: true } } },
          })
        : null;
      const { report } = input;
      const audit = auditAppendArgument([
        {
          actorType: input.actor.type,
          actorId: input.actor.id,
          action: "refund.provider_state",
          subjectType: "approval",
          subjectId: entry.approvalRequestId ?? entry.id,
          ticketId: request?.ticketId ?? null,
          inputs: {
            provider: entry.provider,
            providerRefundId: report.providerRefundId ?? entry.providerRefundId,
            state: report.state,
            failureReason: report.failureReason,
            source: report.source,
          },
          idempotencyKey: entry.idempotencyKey,
        },
      ]);
      const move = await moveRefundState(prismaSqlTx(tx), {
        entryId: entry.id,
        providerRefundId: report.providerRefundId,
        state: report.state,
        failureReason: report.failureReason,
        audit,
      });
      if (move.before === move.after || !move.after || !request)
        return { moved: move.before !== move.after, state: move.after, replyReleased: false };
      const replyReleased = await applyState(tx, request, move.after, request.executionOutcome ?? "refund_created");
      return { moved: true, state: move.after, replyReleased };
    },
    { timeout: 20_000, maxWait: 20_000 },
  );
}

/**
 * Waits up to `ms` for the refund job to record an outcome (the approve action shows it to the
 * reviewer); null means it is still pending and the page follows it live.
 */
export async function awaitRefundOutcome(approvalId: string, ms: number, client: Db = defaultDb()): Promise<TExecutionOutcome | null> {
  const deadline = Date.now() + ms;
  for (;;) {
    const row = await client.approvalRequest.findUnique({ where: { id: approvalId }, select: { executionOutcome: true } });
    if (row?.executionOutcome) return row.executionOutcome as TExecutionOutcome;
    if (Date.now() >= deadline) return null;
    await new Promise((r) => setTimeout(r, 100));
  }
}
