// Which approvals are stale. A pending approval is bound to the digest of its operation
// (lib/contracts/approval-operation.ts): the proposal, the draft and the text the customer receives,
// and the versions of the policy, bundle and agent it was made under. It is stale when the digest it
// would have if it were made now differs: the one definition, asked by the decision rules
// (lib/approvals/decision-options.ts) for the page, the batch and the domain alike. The queue lists
// and counts stale requests from the row's version columns (versionsChanged, staleRequestSql): the
// same answer but for a change in how the customer's text is made from a draft, which only a new
// release brings and the decision still refuses.
import { agentManifest } from "../contracts/manifest";
import { approvalDigest, approvalOperation, type TApprovalOperation } from "../contracts/approval-operation";
import { Prisma } from "../db";
import { policyVersion, type TPolicySettings } from "./settings";

export interface TApprovalVersions {
  policyVersion: string;
  agentVersion: string;
}

/** The versions a request made now would carry. */
export function currentApprovalVersions(settings: TPolicySettings): TApprovalVersions {
  return { policyVersion: policyVersion(settings), agentVersion: agentManifest().agentVersion };
}

/** Whether a request would be made differently now: its digest recomputed under `settings` differs. */
export function isStaleRequest(request: { digest: string; operation: TApprovalOperation }, settings: TPolicySettings): boolean {
  const { proposal, draft, bundleVersion } = request.operation;
  return approvalDigest(approvalOperation({ proposal, draft, policyVersion: policyVersion(settings), bundleVersion })) !== request.digest;
}

/** Whether a request was made under versions other than `current`: the row's columns, for lists. */
export function versionsChanged(made: TApprovalVersions, current: TApprovalVersions): boolean {
  return made.policyVersion !== current.policyVersion || made.agentVersion !== current.agentVersion;
}

/** versionsChanged in SQL, on ApprovalRequest's columns. */
export function staleRequestSql(current: TApprovalVersions): Prisma.Sql {
  return Prisma.sql`("policyVersion" <> ${current.policyVersion} OR "agentVersion" <> ${current.agentVersion})`;
}
