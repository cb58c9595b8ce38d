// The facts the decision rules read (decision-options.ts), in one statement: the request, its
// decisions so far, who started its run and who lowered its refund, its ticket's bundle, the policy settings, the corpus
// hash now, and what the refund's order still allows. The ticket page reads a request this way too, so what it offers is
// what a decision would be allowed. A decision and an edit (a lowered refund) both start here.
import type { Role } from "../../generated/prisma/enums";
import { db as defaultDb, driverOf, type Db } from "../db";
import { preparedSql, timestampFromText } from "../db/driver";
import type { TRowText } from "../db/typed-sql";
import { refundedCentsText, stillRefundableCents } from "../orders/refund-facts";
import { POLICY_SETTING_KEYS, policySettingsFrom, type TPolicySettings } from "../policy/settings";
import { isStaleRequest } from "../policy/approval-versions";
import { CORPUS_HASH_NOW_TEXT } from "../policy/corpus-hash";
import type { TApprovalOperation } from "../contracts/approval-operation";
import { decisionRefusal, decisionRefused, type TDecisionFacts, type TDecisionIntent, type TDecisionsSoFar } from "./decision-options";

export { DECISION_REFUSALS, decisionRefused, type TDecisionRefusal, type TDecisionsSoFar } from "./decision-options";

/** LOAD_REQUEST's row: the columns as the schema types them, as their text; then what it computes. */
type TRequestRow = TRowText<
  "ApprovalRequest",
  "id" | "ticketId" | "kind" | "status" | "requiredRole" | "digest" | "draft" | "expiresAt" | "approvalsRequired"
> &
  TRowText<"Ticket", "bundleVersion"> & {
    /** The customer's salt (Customer.salt): the decision's audit event commits to the note under it. */
    salt: string | null;
    /** The operation as JSON text. */
    operation: string;
    /** The decisions so far: [{ deciderId, decision }], in seat order. */
    decisions: string;
    starterId: string | null;
    /** Who lowered the refund, this request and those it replaced: a JSON array of ids. */
    loweredByIds: string;
    settings: string;
    corpusHash: string;
    /** The passages the request's run retrieved, as JSON text: [{ text, audience }]. */
    passages: string;
    orderCents: string | null;
    refundedCents: string | null;
  };

/** A request as the rules and a decision read it. */
export interface TLoadedRequest extends TDecisionFacts {
  draft: string | null;
  /** The passages the request's run retrieved, with whom each is for (null: the customer, as runs
   * recorded before passages carried it): a reply approved may not repeat a staff-only one. */
  passages: { text: string; audience: "customer" | "staff" | null }[];
  bundleVersion: string;
  operation: TApprovalOperation;
  settings: TPolicySettings;
  /** The corpus in effect now: a request made now is made under it. */
  corpusHash: string;
  /** The customer's salt, for commitments to personal text in audit events; null: no customer's. */
  salt: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ORDER_OF_REQUEST = `(r."operation"->'proposal'->>'orderId')`;

const LOAD_REQUEST = preparedSql(`
  SELECT r."id"::text, r."ticketId"::text, r."kind"::text, r."status"::text, r."requiredRole"::text, r."digest", r."operation"::text, r."draft", r."expiresAt"::text,
         r."approvalsRequired"::text,
         (SELECT coalesce(json_agg(json_build_object('deciderId', d."deciderId", 'decision', d."decision") ORDER BY d."seat"), '[]'::json) FROM "ApprovalDecision" d WHERE d."approvalRequestId" = r."id")::text AS "decisions",
         (SELECT run."startedById"::text FROM "AgentRun" run WHERE run."id" = r."runId") AS "starterId",
         (SELECT coalesce(json_agg(e."editedById") FILTER (WHERE e."editedById" IS NOT NULL), '[]'::json) FROM "ApprovalRequest" e WHERE e."id" = ANY (countersign_request_lineage(r."id")))::text AS "loweredByIds",
         t."bundleVersion",
         (SELECT coalesce(json_agg(json_build_object('key', s."key", 'value', s."value")), '[]'::json) FROM "Setting" s WHERE s."key" = ANY($2::text[]))::text AS "settings",
         ${CORPUS_HASH_NOW_TEXT} AS "corpusHash",
         (SELECT coalesce(json_agg(json_build_object('text', p->>'text', 'audience', p->>'audience')), '[]'::json)
            FROM "AgentRun" run,
                 jsonb_array_elements(CASE WHEN jsonb_typeof(run."evidence"->'passages') = 'array' THEN run."evidence"->'passages' ELSE '[]'::jsonb END) p
           WHERE run."id" = r."runId")::text AS "passages",
         (SELECT o."amountCents"::text FROM "Order" o WHERE o."id" = ${ORDER_OF_REQUEST}) AS "orderCents",
         ${refundedCentsText(ORDER_OF_REQUEST)}::text AS "refundedCents",
         (SELECT c."salt" FROM "Customer" c WHERE c."email" = t."customerEmail") AS "salt"
  FROM "ApprovalRequest" r
  JOIN "Ticket" t ON t."id" = r."ticketId"
  WHERE r."id" = ANY($1::uuid[])`);

/** The request and every fact the rules read, or null when there is none. */
export async function loadDecisionFacts(approvalId: string, client: Db = defaultDb()): Promise<TLoadedRequest | null> {
  return (await loadDecisionFactsOf(client, [approvalId])).get(approvalId) ?? null;
}

/** The same for several requests, in one statement: by id (ids that are not requests are absent). */
export async function loadDecisionFactsOf(client: Db, approvalIds: readonly string[]): Promise<Map<string, TLoadedRequest>> {
  const ids = approvalIds.filter((id) => UUID.test(id));
  if (!ids.length) return new Map();
  const rows = await driverOf(client).rows<TRequestRow>(LOAD_REQUEST, [ids, POLICY_SETTING_KEYS]);
  return new Map(rows.map((row) => [row.id, factsOf(row)]));
}

function factsOf(row: TRequestRow): TLoadedRequest {
  const operation = JSON.parse(row.operation) as TApprovalOperation;
  const settings = policySettingsFrom(JSON.parse(row.settings) as { key: string; value: unknown }[]);
  const proposal = operation.proposal;
  const refundableCents =
    row.orderCents === null ? 0 : stillRefundableCents({ amountCents: Number(row.orderCents) }, Number(row.refundedCents));
  return {
    id: row.id,
    ticketId: row.ticketId,
    kind: row.kind,
    status: row.status,
    requiredRole: row.requiredRole,
    approvalsRequired: Number(row.approvalsRequired),
    starterId: row.starterId,
    loweredByIds: JSON.parse(row.loweredByIds) as string[],
    digest: row.digest,
    decisions: JSON.parse(row.decisions) as TDecisionsSoFar,
    expiresAt: timestampFromText(row.expiresAt),
    stale: isStaleRequest({ digest: row.digest, operation }, settings, row.corpusHash),
    refund:
      row.kind === "refund" && proposal
        ? { orderId: proposal.orderId, amountCents: proposal.amountCents, currency: proposal.currency, refundableCents }
        : null,
    draft: row.draft,
    passages: JSON.parse(row.passages) as TLoadedRequest["passages"],
    bundleVersion: row.bundleVersion,
    operation,
    settings,
    corpusHash: row.corpusHash,
    salt: row.salt,
  };
}

/**
 * A request the actor may decide now as they intend, with what the checks read: the rules of
 * decision-options.ts, refused with the reason the person can act on. Shared by a decision and an edit.
 */
export async function loadDecidable(
  client: Db,
  input: { approvalId: string; actor: { id: string; role: Role } } & TDecisionIntent,
  now: Date,
): Promise<TLoadedRequest> {
  const request = await loadDecisionFacts(input.approvalId, client);
  if (!request) throw decisionRefused("not_found", "This approval request does not exist.");
  const refusal = decisionRefusal(request, input.actor, now, input);
  if (refusal) throw decisionRefused(refusal.code, refusal.message);
  return request;
}
