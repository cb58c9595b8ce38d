// Which approvals are stale. A pending approval is bound to the digest of its operation
// (lib/contracts/approval-operation.ts): the proposal, the draft and the text the customer receives,
// the versions of the policy, bundle and agent it was made under, and the corpus hash (corpus-hash.ts).
// It is stale when the digest it would have if it were made now differs: the one definition, asked
// by the decision rules (lib/approvals/decision-options.ts) for the page, the batch and the domain
// alike. The queue lists and counts stale requests from the row's version columns (versionsChanged,
// staleRequestSql): the same answer but for a change in how the customer's text is made from a
// draft, which only a new release brings and the decision still refuses. A publish changes the
// corpus hash as a settings change does the policy version: waiting approvals go stale either way.
import { agentManifest } from "../contracts/manifest";
import { approvalDigest, approvalOperation, type TApprovalOperation } from "../contracts/approval-operation";
import { Prisma, type Db, type DbTx } from "../db";
import { corpusHash } from "./corpus-hash";
import { loadPolicySettings, policyVersion, type TPolicySettings } from "./settings";

export interface TApprovalVersions {
  policyVersion: string;
  agentVersion: string;
  corpusHash: string;
}

/** The versions a request made now would carry, under these settings and this corpus. */
export function currentApprovalVersions(settings: TPolicySettings, corpus: string): TApprovalVersions {
  return { policyVersion: policyVersion(settings), agentVersion: agentManifest().agentVersion, corpusHash: corpus };
}

/** The settings in force and the versions a request made now would carry (two reads, at once). */
export async function loadApprovalVersions(client: Db | DbTx): Promise<{ settings: TPolicySettings; current: TApprovalVersions }> {
  const [settings, corpus] = await Promise.all([loadPolicySettings(client), corpusHash(client)]);
  return { settings, current: currentApprovalVersions(settings, corpus) };
}

/** Whether a request would be made differently now: its digest recomputed under `settings` and the corpus `corpus` differs. */
export function isStaleRequest(
  request: { digest: string; operation: TApprovalOperation },
  settings: TPolicySettings,
  corpus: string,
): boolean {
  const { proposal, draft, bundleVersion } = request.operation;
  const now = approvalOperation({ proposal, draft, policyVersion: policyVersion(settings), bundleVersion, corpusHash: corpus });
  return approvalDigest(now) !== request.digest;
}

/** Whether a request was made under versions other than `current`: the row's columns, for lists. */
export function versionsChanged(made: TApprovalVersions, current: TApprovalVersions): boolean {
  return (
    made.policyVersion !== current.policyVersion || made.agentVersion !== current.agentVersion || made.corpusHash !== current.corpusHash
  );
}

/** versionsChanged in SQL, on ApprovalRequest's columns. */
export function staleRequestSql(current: TApprovalVersions): Prisma.Sql {
  return Prisma.sql`("policyVersion" <> ${current.policyVersion} OR "agentVersion" <> ${current.agentVersion} OR "corpusHash" <> ${current.corpusHash})`;
}
