// What `npm run audit:verify` checks of the approvals: every decision signed by the app
// (decision-signature.ts) and recorded by the audit event that carries its signature, and every
// ledger row's approval made of decisions that verify. A decision row, an "approved" status and even
// an audit event are what someone holding the app's database role can write; the signature is not.
import { driverRows, type Db } from "../db";
import { timestampFromText, type TTextRow } from "../db/driver";
import type { Role } from "../../generated/prisma/enums";
import { decisionSignatureProblem, decisionsSignatureProblem, type TDecisionKeys, type TStoredDecision } from "./decision-signature";

export type TDecisionProblem =
  | { kind: "decision_unverified"; decisionId: string; approvalRequestId: string; seat: number; why: string }
  | { kind: "decision_without_event"; decisionId: string; approvalRequestId: string; seat: number; decision: string }
  | { kind: "ledger_approval_unverified"; ledgerEntryId: string; idempotencyKey: string; approvalRequestId: string | null; why: string };

// The decision's fields as text, with its request's approvalsRequired and whether its ticket's stream
// holds the event that carries its signature (approval.approved or .rejected, the system's
// approval.auto_approved, a hand reply's ticket.resolved_by_hand).
const DECISIONS = `
  SELECT d."id"::text, d."approvalRequestId"::text, d."decision"::text, d."automatic"::text, d."deciderId"::text, d."deciderRole"::text,
         d."digest", d."seat"::text, r."approvalsRequired"::text, d."createdAt"::text AS "decidedAt", d."signature", d."keyId",
         EXISTS (SELECT 1 FROM "AuditEvent" a
                  WHERE a."stream" = 'ticket:' || r."ticketId"::text AND a."inputs"->>'signature' = d."signature"
                    AND a."action" = ANY (CASE WHEN d."decision" = 'approve'
                                               THEN ARRAY['approval.approved', 'approval.auto_approved', 'ticket.resolved_by_hand']
                                               ELSE ARRAY['approval.rejected'] END))::text AS "audited"
  FROM "ApprovalDecision" d JOIN "ApprovalRequest" r ON r."id" = d."approvalRequestId"
  WHERE d."id" > $1::uuid ORDER BY d."id" LIMIT $2::int`;

// Each ledger row with its approval's decisions (json, in seat order).
const LEDGER_APPROVALS = `
  SELECT l."id"::text, l."idempotencyKey", l."approvalRequestId"::text, r."approvalsRequired"::text,
         (SELECT coalesce(json_agg(json_build_object('decision', d."decision", 'automatic', d."automatic", 'deciderId', d."deciderId",
                   'deciderRole', d."deciderRole", 'digest', d."digest", 'seat', d."seat", 'decidedAt', d."createdAt"::text,
                   'signature', d."signature", 'keyId', d."keyId") ORDER BY d."seat"), '[]'::json)
            FROM "ApprovalDecision" d WHERE d."approvalRequestId" = l."approvalRequestId")::text AS "decisions"
  FROM "LedgerEntry" l LEFT JOIN "ApprovalRequest" r ON r."id" = l."approvalRequestId"
  WHERE l."txid" >= $1::bigint AND l."id" > $2::uuid ORDER BY l."id" LIMIT $3::int`;

const FIRST_UUID = "00000000-0000-0000-0000-000000000000";

/** Every row of `sql` in batches, in id order: its last two parameters are the id to start after and the batch size. */
async function* batchesById(client: Db, sql: string, params: readonly unknown[], batchSize: number): AsyncGenerator<TTextRow[]> {
  for (let after = FIRST_UUID; ;) {
    const rows = await driverRows(client, sql, [...params, after, batchSize]);
    yield rows;
    if (rows.length < batchSize) return;
    after = rows.at(-1)!.id!;
  }
}

/** Every decision: its signature, and the audit event that carries it. */
export async function checkDecisions(
  client: Db,
  keys: TDecisionKeys,
  problems: { push(p: TDecisionProblem): unknown },
  batchSize = 5000,
): Promise<number> {
  let checked = 0;
  for await (const rows of batchesById(client, DECISIONS, [], batchSize)) {
    for (const r of rows) {
      const at = { decisionId: r.id!, approvalRequestId: r.approvalRequestId!, seat: Number(r.seat) };
      const why = decisionSignatureProblem(
        {
          approvalRequestId: r.approvalRequestId!,
          digest: r.digest!,
          decision: r.decision as "approve" | "reject",
          deciderId: r.deciderId ?? null,
          deciderRole: r.deciderRole as Role,
          automatic: r.automatic === "true",
          seat: Number(r.seat),
          approvalsRequired: Number(r.approvalsRequired),
          decidedAt: timestampFromText(r.decidedAt!),
          signature: r.signature ?? null,
          keyId: r.keyId ?? null,
        },
        keys,
      );
      if (why) problems.push({ kind: "decision_unverified", ...at, why });
      else if (r.audited !== "true") problems.push({ kind: "decision_without_event", ...at, decision: r.decision! });
    }
    checked += rows.length;
  }
  return checked;
}

/** Each ledger row since `fromTxid`: an approval whose every decision verifies. */
export async function checkLedgerApprovals(
  client: Db,
  fromTxid: bigint,
  keys: TDecisionKeys,
  problems: { push(p: TDecisionProblem): unknown },
  batchSize = 5000,
): Promise<void> {
  for await (const rows of batchesById(client, LEDGER_APPROVALS, [fromTxid.toString()], batchSize)) {
    for (const r of rows) {
      const decisions = (JSON.parse(r.decisions!) as (Omit<TStoredDecision, "decidedAt"> & { decidedAt: string })[]).map((d) => ({
        ...d,
        decidedAt: timestampFromText(d.decidedAt),
      }));
      // A row with no approval at all is ledger_without_approval (verify-audit-chain.ts); here, one whose approval does not verify.
      if (decisions.length === 0) continue;
      const why = decisionsSignatureProblem({ id: r.approvalRequestId!, approvalsRequired: Number(r.approvalsRequired) }, decisions, keys);
      if (why)
        problems.push({
          kind: "ledger_approval_unverified",
          ledgerEntryId: r.id!,
          idempotencyKey: r.idempotencyKey!,
          approvalRequestId: r.approvalRequestId ?? null,
          why,
        });
    }
  }
}
