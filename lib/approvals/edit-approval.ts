// A reviewer may lower a refund before approving it, never raise it. The lowered refund is a new
// operation: a new proposal row (the agent's stays as it was), a new request bound to its own digest
// and gated again by the policy, pointing at the request it replaces, which is superseded. Lowering
// never asks less than the original asked: the new request needs at least its approvals and its role
// (the stronger of the original's and the gate's), and whoever lowered it counts as one of its
// starters (lib/policy/approver-rules.ts): one cent off a two-person refund still needs two people,
// neither of them the person who took the cent off. Approvals given to the original no longer count:
// they were given to another digest. The executor then executes exactly the new request, and the page
// shows the agent's proposal beside the person's edit.
import type { Role } from "../../generated/prisma/enums";
import { db as defaultDb, isUniqueViolation, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { approvalDigest, approvalOperation } from "../contracts/approval-operation";
import { normaliseLineEndings, replyWithAmount } from "../contracts/customer-reply";
import { approvalGate } from "../policy/evaluate-refund";
import { REFUND_POLICY_REASONS } from "../contracts/reason-codes";
import { strongerRole } from "../contracts/roles";
import { policyVersion, type TPolicySettings } from "../policy/settings";
import { decisionRefused, loadDecidable } from "./load-decidable";
import { insertLoweredRequest, supersedePending } from "./store/approval-store";
import { assertReplyMatches } from "./reply-claims";

export interface TEditRefundInput {
  approvalId: string;
  /** The digest of the request the person was shown. */
  digest: string;
  amountCents: number;
  /** The reply as the person left it; without one, the draft with its amount changed to the new one. */
  editedReply?: string | null;
  actor: { id: string; role: Role };
  client?: Db;
  now?: Date;
}

/** The new request (with what it asks), or null when the amount is the one proposed (nothing to edit). */
export async function editRefundAmount(
  input: TEditRefundInput,
): Promise<{ approvalId: string; ticketId: string; digest: string; approvalsRequired: number; requiredRole: Role } | null> {
  const client = input.client ?? defaultDb();
  const now = input.now ?? new Date();
  // The rules of a decision (decision-options.ts) for an approval of the lowered amount: who may,
  // that it is lower, and that the order still allows it.
  const request = await loadDecidable(client, { ...input, decision: "approve" }, now);
  const { operation, settings } = request;
  const proposal = operation.proposal!;
  if (input.amountCents === proposal.amountCents) return null;
  const draft = input.editedReply?.trim()
    ? normaliseLineEndings(input.editedReply).trim()
    : replyWithAmount(request.draft ?? "", proposal.amountCents, input.amountCents);
  // The reply, as the person left it or with its amount changed, states the lowered refund.
  assertReplyMatches(draft, { amountCents: input.amountCents, currency: proposal.currency }, "editedReply");
  const gate = loweredGate(input.amountCents, request);
  const lowered = { ...proposal, amountCents: input.amountCents };
  const edited = approvalOperation({
    proposal: lowered,
    draft,
    policyVersion: policyVersion(settings),
    bundleVersion: request.bundleVersion,
    corpusHash: request.corpusHash,
  });
  const digest = approvalDigest(edited);

  try {
    return await client.$transaction(async (tx) => {
      const original = await tx.approvalRequest.findUniqueOrThrow({ where: { id: request.id }, include: { proposal: true } });
      await recordAuditEvent(tx, {
        actorType: "user",
        actorId: input.actor.id,
        action: "approval.edited",
        subjectType: "approval",
        subjectId: request.id,
        ticketId: request.ticketId,
        inputs: {
          fromCents: proposal.amountCents,
          toCents: input.amountCents,
          currency: proposal.currency,
          fromDigest: request.digest,
          digest,
          requiredRole: gate.requiredRole,
          approvalsRequired: gate.approvalsRequired,
          replyEdited: draft !== request.draft,
        },
      });
      // Superseded only if still pending: a decision that slipped in first wins, and the edit is refused.
      if (!(await supersedePending(tx, request.id)))
        throw decisionRefused("already_decided", "This request was decided while you edited it.");
      const created = await insertLoweredRequest(tx, {
        original: { id: request.id, runId: original.runId, ticketId: request.ticketId, expiresAt: original.expiresAt },
        proposal: original.proposal!,
        amountCents: input.amountCents,
        reasons: loweredReasons(original.proposal?.decisionReasons ?? [], gate),
        operation: edited,
        digest,
        draft,
        requiredRole: gate.requiredRole,
        approvalsRequired: gate.approvalsRequired,
        editedById: input.actor.id,
      });
      return { approvalId: created.id, ticketId: request.ticketId, digest, ...gate };
    });
  } catch (error) {
    // Two people editing the same request at once: the one-edit-per-request index lets one through.
    if (isUniqueViolation(error))
      throw decisionRefused("already_decided", "Someone else changed this request a moment ago. Reload the ticket.");
    throw error;
  }
}

/** What the lowered refund asks: the policy's gate on the lower amount, never below what the original asked. */
function loweredGate(amountCents: number, original: { settings: TPolicySettings; requiredRole: Role; approvalsRequired: number }) {
  const gate = approvalGate(amountCents, original.settings);
  return {
    requiredRole: strongerRole(gate.requiredRole, original.requiredRole),
    approvalsRequired: Math.max(gate.approvalsRequired, original.approvalsRequired),
  };
}

/** The reasons a person is needed: the original's all carry over (a flagged account stays flagged, a two-person refund stays two-person), with any the gate adds. */
function loweredReasons(original: readonly string[], gate: { requiredRole: Role; approvalsRequired: number }): string[] {
  return [
    ...new Set([
      ...original,
      ...(gate.requiredRole === "SPECIALIST" ? (["specialist_required"] as const) : []),
      ...(gate.approvalsRequired === 2 ? (["two_person_required"] as const) : []),
    ]),
  ].filter((r) => (REFUND_POLICY_REASONS as readonly string[]).includes(r));
}
