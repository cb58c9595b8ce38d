// Whether a person may decide an approval request now, and what the decision needs to know: one
// statement reads the request, its decisions so far, who started its run, its ticket's bundle and the
// policy settings; the checks refuse with a reason the person can act on. A decision and an edit
// (a lowered refund) both start here.
import type { Role } from "../../generated/prisma/enums";
import { AppError, type TErrorCode } from "../contracts/app-error";
import { driverOf, type Db } from "../db";
import { preparedSql, timestampFromText } from "../db/driver";
import { POLICY_SETTING_KEYS, policySettingsFrom, policyVersion, type TPolicySettings } from "../policy/settings";
import { approvalDigest, approvalOperation, type TApprovalOperation } from "../contracts/approval-operation";
import { mayUse, roleSatisfies } from "../contracts/roles";

/** The codes a refused decision carries (lib/contracts/app-error.ts); the page branches on them. */
export const DECISION_REFUSALS = ["not_found", "already_decided", "expired", "stale", "superseded", "role_insufficient", "note_required", "reply_required", "operation_changed", "ticket_busy", "second_approver_required", "run_starter_excluded", "amount_not_lowered"] as const satisfies readonly TErrorCode[];
export type TDecisionRefusal = (typeof DECISION_REFUSALS)[number];

/** A decision refused: an AppError whose code is one of DECISION_REFUSALS. */
export function decisionRefused(code: TDecisionRefusal, message: string): AppError<TDecisionRefusal> {
  return new AppError(code, message);
}

export type TRequestRow = {
  id: string;
  ticketId: string;
  kind: "refund" | "reply";
  status: string;
  requiredRole: Role;
  digest: string;
  operation: string;
  draft: string | null;
  expiresAt: string;
  approvalsRequired: number;
  /** The decisions so far: [{ deciderId, decision }], in seat order. */
  decisions: string;
  starterId: string | null;
  bundleVersion: string;
  settings: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The request, its decisions so far, who started its run, its ticket's bundle and the policy
// settings: one statement.
const LOAD_REQUEST = preparedSql(`
  SELECT r."id"::text, r."ticketId"::text, r."kind"::text, r."status"::text, r."requiredRole"::text, r."digest", r."operation"::text, r."draft", r."expiresAt"::text,
         r."approvalsRequired"::int AS "approvalsRequired",
         (SELECT coalesce(json_agg(json_build_object('deciderId', d."deciderId", 'decision', d."decision") ORDER BY d."seat"), '[]'::json) FROM "ApprovalDecision" d WHERE d."approvalRequestId" = r."id")::text AS "decisions",
         (SELECT run."startedById"::text FROM "AgentRun" run WHERE run."id" = r."runId") AS "starterId",
         t."bundleVersion",
         (SELECT coalesce(json_agg(json_build_object('key', s."key", 'value', s."value")), '[]'::json) FROM "Setting" s WHERE s."key" = ANY($2::text[]))::text AS "settings"
  FROM "ApprovalRequest" r
  JOIN "Ticket" t ON t."id" = r."ticketId"
  WHERE r."id" = $1::uuid`);

async function loadRequest(client: Db, approvalId: string): Promise<TRequestRow | null> {
  if (!UUID.test(approvalId)) return null;
  const [row] = await driverOf(client).rows<TRequestRow>(LOAD_REQUEST, [approvalId, POLICY_SETTING_KEYS]);
  return row ? { ...row, approvalsRequired: Number(row.approvalsRequired) } : null;
}

/** The decisions a request already has: who, and which way, in seat order. */
export type TDecisionsSoFar = { deciderId: string | null; decision: "approve" | "reject" }[];

/**
 * A request the actor may decide now, with what the checks read: it exists, is the newest, pending
 * and not yet fully decided, unexpired, what the person was shown (the digest) and still what would
 * be asked now (not stale), and the actor's role is sufficient. Shared by a decision and an edit.
 */
export async function loadDecidable(client: Db, input: { approvalId: string; digest: string; actor: { id: string; role: Role } }, now: Date): Promise<{ request: TRequestRow; decisions: TDecisionsSoFar; operation: TApprovalOperation; settings: TPolicySettings }> {
  const request = await loadRequest(client, input.approvalId);
  if (!request) throw decisionRefused("not_found", "This approval request does not exist.");
  if (request.status === "superseded") throw decisionRefused("superseded", "A newer run of the agent replaced this request. Review the newest one on the ticket.");
  const expiresAt = timestampFromText(request.expiresAt);
  if (request.status === "expired") throw decisionRefused("expired", `This request expired at ${expiresAt.toISOString()}. Run the agent again for a fresh one.`);
  const decisions = JSON.parse(request.decisions) as TDecisionsSoFar;
  if (request.status !== "pending" || decisions.length >= request.approvalsRequired || decisions.some((d) => d.decision === "reject")) {
    throw decisionRefused("already_decided", "This request has already been decided.");
  }
  if (!roleSatisfies(input.actor.role, request.requiredRole)) {
    throw decisionRefused(
      "role_insufficient",
      !mayUse(input.actor.role, "approve") ? "Leads cannot approve or reject requests." : `This ${request.kind} needs a ${request.requiredRole.toLowerCase()} to decide it.`,
    );
  }
  if (input.digest !== request.digest) throw decisionRefused("operation_changed", "The request changed since you opened it. Reload the ticket and review it again.");
  if (now > expiresAt) throw decisionRefused("expired", `This request expired at ${expiresAt.toISOString()}. Run the agent again for a fresh one.`);
  // The digest the request would have if it were made now: a policy, bundle or agent change shows.
  const operation = JSON.parse(request.operation) as TApprovalOperation;
  const settings = policySettingsFrom(JSON.parse(request.settings) as { key: string; value: unknown }[]);
  const current = approvalDigest(approvalOperation({ proposal: operation.proposal, draft: operation.draft, policyVersion: policyVersion(settings), bundleVersion: request.bundleVersion }));
  if (current !== request.digest) {
    throw decisionRefused("stale", "The policy, intake bundle or agent changed since this request was made. Run the agent again for a fresh one.");
  }
  return { request, decisions, operation, settings };
}

