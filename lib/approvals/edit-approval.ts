// A reviewer may lower a refund before approving it, never raise it. The lowered refund is a new
// operation: a new proposal row (the agent's stays as it was), a new request bound to its own digest
// and gated again by the policy (a lower amount can need a less senior approver, or one person instead
// of two), pointing at the request it replaces, which is superseded. Approvals given to the original
// no longer count: they were given to another digest. The executor then executes exactly the new
// request, and the page shows the agent's proposal beside the person's edit.
import type { Role } from "../../generated/prisma/enums";
import { db as defaultDb, isUniqueViolation, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { approvalDigest, approvalOperation } from "../contracts/approval-operation";
import { normaliseLineEndings, replyWithAmount } from "../contracts/customer-reply";
import { approvalGate } from "../policy/evaluate-refund";
import { REFUND_POLICY_REASONS, type TRefundPolicyReason } from "../contracts/reason-codes";
import { policyVersion } from "../policy/settings";
import { decisionRefused, loadDecidable } from "./load-decidable";
import { insertLoweredRequest, supersedePending } from "./store/approval-store";

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

/** The new request, or null when the amount is the one proposed (nothing to edit). */
export async function editRefundAmount(input: TEditRefundInput): Promise<{ approvalId: string; digest: string } | null> {
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
  const gate = approvalGate(input.amountCents, settings);
  const lowered = { ...proposal, amountCents: input.amountCents };
  const edited = approvalOperation({
    proposal: lowered,
    draft,
    policyVersion: policyVersion(settings),
    bundleVersion: request.bundleVersion,
  });
  const digest = approvalDigest(edited);

  try {
    return await client.$transaction(async (tx) => {
      const original = await tx.approvalRequest.findUniqueOrThrow({ where: { id: request.id }, include: { proposal: true } });
      // The reasons a person is needed, as the gate sees the lowered amount: the ones that do not
      // depend on the amount carry over (a flagged account stays flagged).
      const amountReasons: readonly TRefundPolicyReason[] = ["specialist_required", "two_person_required"];
      const reasons = [
        ...(original.proposal?.decisionReasons ?? []).filter((r) => !amountReasons.includes(r as TRefundPolicyReason)),
        ...(gate.requiredRole === "SPECIALIST" ? (["specialist_required"] as const) : []),
        ...(gate.approvalsRequired === 2 ? (["two_person_required"] as const) : []),
      ].filter((r) => (REFUND_POLICY_REASONS as readonly string[]).includes(r));
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
        reasons,
        operation: edited,
        digest,
        draft,
        requiredRole: gate.requiredRole,
        approvalsRequired: gate.approvalsRequired,
        editedById: input.actor.id,
      });
      return { approvalId: created.id, digest };
    });
  } catch (error) {
    // Two people editing the same request at once: the one-edit-per-request index lets one through.
    if (isUniqueViolation(error))
      throw decisionRefused("already_decided", "Someone else changed this request a moment ago. Reload the ticket.");
    throw error;
  }
}
