// Who may decide an approval request: the one home of the role and two-person rules. The decision
// rules (lib/approvals/decision-options.ts) ask it before a person decides, for the page and for the
// domain alike; the refund executor asks it again of every decision recorded, whoever wrote the row.
import { mayUse, roleSatisfies, type Role } from "../contracts/roles";
import type { TErrorCode } from "../contracts/app-error";

export interface TApproverRefusal {
  code: Extract<TErrorCode, "role_insufficient" | "second_approver_required" | "run_starter_excluded">;
  message: string;
}

/** What a request asks of the people deciding it. */
export interface TApproverTerms {
  kind: "refund" | "reply";
  requiredRole: Role;
  /** 1, or 2 different people at or above the two-person threshold. */
  approvalsRequired: number;
  /** Who started the agent's run that made the request (excluded from a two-person refund). */
  starterId: string | null;
  /**
   * Whoever lowered the refund, for this request and every one it replaced (ApprovalRequest.editedById
   * along editedFromId, read through countersign_request_lowerers): each counts as a starter too, so
   * lowering a two-person refund never lets the person who lowered it decide it, alone or as one of two.
   */
  loweredByIds: readonly string[];
}

/** Whether a person of `role` may decide the request at all. */
export function roleRefusal(role: Role, terms: Pick<TApproverTerms, "kind" | "requiredRole">): TApproverRefusal | null {
  if (roleSatisfies(role, terms.requiredRole)) return null;
  const message = !mayUse(role, "approve")
    ? "Leads cannot approve or reject requests."
    : `This ${terms.kind} needs a ${terms.requiredRole.toLowerCase()} to decide it.`;
  return { code: "role_insufficient", message };
}

/**
 * Whether `personId` may take the next seat: not one they already hold, and – for an approval of a
 * two-person refund – not as the run's starter, nor as someone who lowered the refund. `earlier` are the deciders of the seats before it.
 */
export function seatRefusal(
  personId: string | null,
  terms: TApproverTerms,
  earlier: readonly (string | null)[],
  decision: "approve" | "reject",
): TApproverRefusal | null {
  if (personId === null && terms.approvalsRequired > 1)
    return { code: "second_approver_required", message: "A two-person refund needs two named people." };
  if (personId !== null && earlier.includes(personId)) {
    return { code: "second_approver_required", message: "You gave the first approval: the second must come from a different person." };
  }
  if (decision !== "approve" || terms.approvalsRequired < 2 || personId === null) return null;
  if (personId === terms.starterId) {
    return {
      code: "run_starter_excluded",
      message: "You started the agent's run: this two-person refund needs approvals from two other people.",
    };
  }
  if (terms.loweredByIds.includes(personId)) {
    return {
      code: "run_starter_excluded",
      message: "You lowered this refund: it still needs two people, and the approvals must come from two others.",
    };
  }
  return null;
}
