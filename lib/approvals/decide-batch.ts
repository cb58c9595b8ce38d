// Batch decisions: several waiting approvals decided at once with one note, each against its own
// digest – the one the person was shown in the preview. Every item goes through decideApproval, so
// every rule of a single decision holds for each (role, expiry, staleness, the digest, one decision);
// a refused item is an outcome of the batch, not its failure, and the others are decided.
import type { Role } from "../../generated/prisma/enums";
import { AppError, isAppError } from "../contracts/app-error";
import { mayUse } from "../contracts/roles";
import { customerReply } from "../contracts/customer-reply";
import { db as defaultDb, type Db } from "../db";
import { decideApproval, DECISION_REFUSALS, type TDecisionRefusal } from "./decide-approval";
import { decisionOptions, decisionRefusal, type TRefusal } from "./decision-options";
import { loadDecisionFactsOf } from "./load-decidable";

/** The most one batch decides. */
export const MAX_BATCH_DECISIONS = 50;

export interface TBatchItem {
  approvalId: string;
  /** The digest of the operation shown in the preview. */
  digest: string;
}

export type TBatchOutcome =
  | { approvalId: string; outcome: "approved" | "rejected"; refund: boolean; approvals: number; approvalsRequired: number }
  | { approvalId: string; outcome: "refused"; code: TDecisionRefusal; message: string };

export async function decideBatch(input: {
  items: readonly TBatchItem[];
  decision: "approve" | "reject";
  note?: string | null;
  actor: { id: string; role: Role };
  client?: Db;
  now?: Date;
}): Promise<TBatchOutcome[]> {
  if (!mayUse(input.actor.role, "approve")) throw new AppError("forbidden", "Your role may not approve or reject requests.");
  if (input.items.length === 0) throw new AppError("invalid", "Select at least one request.", "items");
  if (input.items.length > MAX_BATCH_DECISIONS)
    throw new AppError("invalid", `Decide at most ${MAX_BATCH_DECISIONS} requests at once.`, "items");
  if (new Set(input.items.map((i) => i.approvalId)).size !== input.items.length)
    throw new AppError("invalid", "A request appears twice in the batch.", "items");
  if (input.decision === "reject" && !input.note?.trim())
    throw new AppError("note_required", "Say why you reject them: a note is required.");
  const outcomes: TBatchOutcome[] = [];
  for (const item of input.items) {
    try {
      const result = await decideApproval({
        approvalId: item.approvalId,
        digest: item.digest,
        decision: input.decision,
        note: input.note,
        actor: input.actor,
        client: input.client,
        now: input.now,
      });
      outcomes.push({
        approvalId: item.approvalId,
        outcome: input.decision === "approve" ? "approved" : "rejected",
        refund: result.refundJobEnqueued,
        approvals: result.approvals,
        approvalsRequired: result.approvalsRequired,
      });
    } catch (error) {
      if (!isAppError(error, ...DECISION_REFUSALS)) throw error;
      outcomes.push({ approvalId: item.approvalId, outcome: "refused", code: error.code, message: error.message });
    }
  }
  return outcomes;
}

/** A waiting approval as the batch preview shows it. */
export interface TBatchPreviewRow {
  approvalId: string;
  digest: string;
  ticket: { id: string; number: number; subject: string };
  kind: "refund" | "reply";
  proposal: { amountCents: number; currency: string; orderId: string; decision: string } | null;
  /** The documents the draft cites, e.g. return-policy-us@2. */
  citations: string[];
  /** What the customer receives if it is approved: the words people approve. */
  reply: string;
  requiredRole: Role;
  /** What the person previewing may do with it (decision-options.ts): only a decidable item may be ticked. */
  mayDecide: boolean;
  /** Why they may not, in the domain's words, with its code. */
  refusal: TRefusal | null;
  expiresAt: Date;
}

const CITATION = /\[([a-z0-9-]+@\d+)\]/g;

/** The waiting approvals of the given tickets, for the person about to decide them: three statements whatever their number. */
export async function previewBatch(input: {
  ticketIds: readonly string[];
  viewer: { id: string; role: Role };
  client?: Db;
  now?: Date;
}): Promise<TBatchPreviewRow[]> {
  const client = input.client ?? defaultDb();
  const now = input.now ?? new Date();
  const ids = [...new Set(input.ticketIds)].slice(0, MAX_BATCH_DECISIONS);
  const requests = await client.approvalRequest.findMany({
    where: { ticketId: { in: ids }, status: "pending" },
    orderBy: { createdAt: "asc" },
    select: { id: true, ticket: { select: { id: true, number: true, subject: true } }, proposal: { select: { decision: true } } },
  });
  const facts = await loadDecisionFactsOf(
    client,
    requests.map((r) => r.id),
  );
  return requests.flatMap((r) => {
    const request = facts.get(r.id);
    if (!request) return [];
    // Approve is what a batch does to every ticked item; an item the person may not approve is not offered.
    const options = decisionOptions(request, input.viewer, now);
    const proposal =
      request.refund && r.proposal
        ? {
            amountCents: request.refund.amountCents,
            currency: request.refund.currency,
            orderId: request.refund.orderId,
            decision: String(r.proposal.decision),
          }
        : null;
    return [
      {
        approvalId: r.id,
        digest: request.digest,
        ticket: r.ticket,
        kind: request.kind,
        proposal,
        citations: [...new Set([...(request.draft ?? "").matchAll(CITATION)].map((m) => m[1]!))],
        reply: customerReply(request.draft ?? ""),
        requiredRole: request.requiredRole,
        mayDecide: options.approve && options.reject,
        refusal: options.refusal ?? (options.reject ? null : decisionRefusal(request, input.viewer, now, { decision: "reject" })),
        expiresAt: request.expiresAt,
      },
    ];
  });
}
