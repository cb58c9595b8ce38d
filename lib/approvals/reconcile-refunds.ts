// The safety net under the refund job: an approved refund with no recorded outcome and no job (an
// approval decided before the job queue existed, or a job deleted by hand) gets its job again. The
// job's id is the approval's, so this can never add a second job beside a live one; a job that
// failed for good is kept for an admin to retry and is left alone here.
//
// Only a request whose decisions verify (lib/audit/decision-signature.ts) is re-enqueued: an
// "approved" status and decision rows are what anyone holding the database role could write. A
// request whose decisions do not verify is settled at once as the executor refuses it
// (blocked:not_approved, its audit event naming the bad signature; the ticket back to a person), and
// logged, so it is refused once rather than looked at again every minute.
import { db as defaultDb, type Db } from "../db";
import { timestampFromText } from "../db/driver";
import { recordAuditEvent } from "../audit/record-audit-event";
import { decisionsSignatureProblem } from "../audit/decision-signature";
import { enqueue, jobKeptSql } from "../jobs/queue";
import { REFUND_EXECUTE_JOB } from "../jobs/definitions";
import { logLine } from "../observability/logger";
import type { Role } from "../../generated/prisma/enums";
import { loadPaymentSettings, refundProviderFor } from "../payments/payment-settings";
import type { TRefundProvider } from "../payments/refund-provider";
import { recordProviderReport, settleApprovedRefund } from "./settle-refund";

class JobAlreadyThere extends Error {}

type TOrphan = {
  id: string;
  ticketId: string;
  digest: string;
  approvalsRequired: number;
  /** [{ decision, automatic, deciderId, deciderRole, digest, seat, decidedAt, signature, keyId }] in seat order, as JSON. */
  decisions: string;
};

type TOrphanDecision = {
  decision: "approve" | "reject";
  automatic: boolean;
  deciderId: string | null;
  deciderRole: Role;
  digest: string;
  seat: number;
  decidedAt: string;
  signature: string | null;
  keyId: string | null;
};

/** Why the orphan's decisions do not stand as the app's, or null when every one verifies. */
function unverified(orphan: TOrphan): string | null {
  const decisions = (JSON.parse(orphan.decisions) as TOrphanDecision[]).map((d) => ({ ...d, decidedAt: timestampFromText(d.decidedAt) }));
  return decisionsSignatureProblem({ id: orphan.id, approvalsRequired: orphan.approvalsRequired }, decisions);
}

export async function reconcileApprovedRefunds(
  input: { client?: Db; olderThanMs?: number; log?: (line: string) => void } = {},
): Promise<{ reenqueued: string[]; refused: { id: string; detail: string }[] }> {
  const client = input.client ?? defaultDb();
  const log = input.log ?? logLine;
  const before = new Date(Date.now() - (input.olderThanMs ?? 60_000));
  const orphans = await client.$queryRawUnsafe<TOrphan[]>(
    `SELECT a.id::text, a."ticketId"::text, a."digest", a."approvalsRequired"::int AS "approvalsRequired",
            (SELECT coalesce(json_agg(json_build_object('decision', d."decision", 'automatic', d."automatic", 'deciderId', d."deciderId",
                      'deciderRole', d."deciderRole", 'digest', d."digest", 'seat', d."seat", 'decidedAt', d."createdAt"::text,
                      'signature', d."signature", 'keyId', d."keyId") ORDER BY d."seat"), '[]'::json)
               FROM "ApprovalDecision" d WHERE d."approvalRequestId" = a.id)::text AS "decisions"
       FROM "ApprovalRequest" a
      WHERE a.kind = 'refund' AND a.status = 'approved' AND a."executionOutcome" IS NULL AND a."createdAt" < $1
        AND NOT ${jobKeptSql(REFUND_EXECUTE_JOB, "a.id")}
      ORDER BY a."createdAt" LIMIT 500`,
    before,
  );
  const reenqueued: string[] = [];
  const refused: { id: string; detail: string }[] = [];
  for (const orphan of orphans) {
    const problem = unverified(orphan);
    if (problem) {
      // Not a job for the worker: the executor's refusal, recorded now, with its audit event.
      const settled = await settleApprovedRefund({ approvalId: orphan.id, client });
      log(`refund reconciliation: not re-enqueued, approval ${orphan.id}: ${problem} (${settled.outcome})`);
      refused.push({ id: orphan.id, detail: problem });
      continue;
    }
    if (await reenqueue(client, orphan)) reenqueued.push(orphan.id);
  }
  return { reenqueued, refused };
}

/** The orphan's job again, after its audit event; false when a job appeared meanwhile. */
function reenqueue(client: Db, orphan: TOrphan): Promise<boolean> {
  return client
    .$transaction(async (tx) => {
      // The event first, as for every effect; if a job appeared meanwhile, both roll back.
      await recordAuditEvent(tx, {
        actorType: "system",
        actorId: "refund-reconciler",
        action: "refund.reenqueued",
        subjectType: "approval",
        subjectId: orphan.id,
        ticketId: orphan.ticketId,
        inputs: { reason: "approved refund with no recorded outcome and no job" },
      });
      if (!(await enqueue(tx, REFUND_EXECUTE_JOB, { approvalId: orphan.id }, { id: orphan.id }))) throw new JobAlreadyThere();
      return true;
    })
    .catch((error) => {
      if (error instanceof JobAlreadyThere) return false;
      throw error;
    });
}

/**
 * The provider's side: every ledger row whose refund is not final after `olderThanMs` (the
 * `payments.reconcileAfterSeconds` setting) is settled from the provider's own word. A row left
 * `requested` (a crash between writing it and recording the provider's answer, or a job that gave up)
 * is asked for again with the same key – the provider answers with the refund it made, if it made
 * one; a pending one is read. One row's failure (the provider unreachable) is logged and left for the
 * next pass; the others go on.
 */
export async function reconcileProviderRefunds(
  input: { client?: Db; olderThanMs?: number; provider?: TRefundProvider; log?: (line: string) => void } = {},
): Promise<{ asked: number; settled: { entryId: string; state: string | null }[]; failed: string[] }> {
  const client = input.client ?? defaultDb();
  const log = input.log ?? logLine;
  const settings = await loadPaymentSettings(client);
  if (settings.provider === "ledger-only" && !input.provider) return { asked: 0, settled: [], failed: [] };
  const provider = input.provider ?? refundProviderFor(settings);
  const before = new Date(Date.now() - (input.olderThanMs ?? settings.reconcileAfterMs));
  const open = await client.ledgerEntry.findMany({
    where: { provider: provider.name, state: { in: ["requested", "pending", "requires_action"] }, stateChangedAt: { lt: before } },
    select: { id: true, state: true, providerRefundId: true, approvalRequestId: true },
    orderBy: { stateChangedAt: "asc" },
    take: 200,
  });
  const settled: { entryId: string; state: string | null }[] = [];
  const failed: string[] = [];
  for (const entry of open) {
    try {
      if (entry.state === "requested" || !entry.providerRefundId) {
        if (!entry.approvalRequestId) continue;
        const settlement = await settleApprovedRefund({ approvalId: entry.approvalRequestId, client, provider });
        settled.push({ entryId: entry.id, state: settlement.refundState });
      } else {
        const refund = await provider.readRefund(entry.providerRefundId);
        const recorded = await recordProviderReport(client, {
          entryId: entry.id,
          report: { providerRefundId: refund.id, state: refund.state, failureReason: refund.failureReason, source: "reconciliation" },
          actor: { type: "system", id: "refund-reconciler" },
        });
        settled.push({ entryId: entry.id, state: recorded.state });
      }
    } catch (error) {
      failed.push(entry.id);
      log(`refund reconciliation: ledger row ${entry.id} not settled: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { asked: open.length, settled, failed };
}
