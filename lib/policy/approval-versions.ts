// Which approvals are stale before anyone clicks. A pending approval binds the policy version and the
// agent version it was made under (in its operation, lib/contracts/approval-operation.ts, and in its
// row's columns of the same names); once either is no longer the current one, deciding it is refused
// as `stale` (decide-approval.ts recomputes the digest and compares). The queue marks such requests
// from the two columns.
import { agentManifest } from "../contracts/manifest";
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

/** Whether a request was made under versions other than `current`. */
export function isStaleRequest(made: TApprovalVersions, current: TApprovalVersions): boolean {
  return made.policyVersion !== current.policyVersion || made.agentVersion !== current.agentVersion;
}

/** The same test in SQL, on ApprovalRequest's columns. */
export function staleRequestSql(current: TApprovalVersions): Prisma.Sql {
  return Prisma.sql`("policyVersion" <> ${current.policyVersion} OR "agentVersion" <> ${current.agentVersion})`;
}
