// The autonomy dial as a lead reads it: where it stands, what raising it needs, and for each
// candidate limit the shadow evidence and whether setAutonomyLimit (shadow.ts) would allow moving
// there now. The verdict follows setAutonomyLimit's rule; the integration test holds the two together.
import { db as defaultDb, type Db } from "../db";
import { loadPolicySettings, policyVersion } from "../policy/settings";
import { CANDIDATE_LIMITS_CENTS, dialEvidence, type TDialEvidence } from "./shadow";

/**
 * current: the dial is here; lower: below the dial (lowering needs no evidence);
 * allowed: a raise with enough agreement and no disagreement; short: a raise without enough
 * agreeing decisions; disputed: a raise where a person disagreed at least once.
 */
export type TDialVerdict = "current" | "lower" | "allowed" | "short" | "disputed";

export interface TDialCandidate extends TDialEvidence {
  /** Shadow decisions at this limit still waiting for a person's decision. */
  awaiting: number;
  verdict: TDialVerdict;
  /** Agreeing decisions still needed before a raise (0 when none are). */
  missing: number;
}

export interface TDialStatus {
  limitCents: number;
  requiredAgreements: number;
  policyVersion: string;
  /** Refund proposals the shadow passes recorded (one row per proposal and candidate limit). */
  shadowedProposals: number;
  candidates: TDialCandidate[];
}

export function dialVerdict(evidence: TDialEvidence, currentCents: number, required: number): Pick<TDialCandidate, "verdict" | "missing"> {
  const missing = Math.max(0, required - evidence.agreed);
  if (evidence.limitCents === currentCents) return { verdict: "current", missing: 0 };
  if (evidence.limitCents < currentCents) return { verdict: "lower", missing: 0 };
  if (evidence.disagreed > 0) return { verdict: "disputed", missing };
  return missing > 0 ? { verdict: "short", missing } : { verdict: "allowed", missing: 0 };
}

export async function loadDialStatus(client: Db = defaultDb()): Promise<TDialStatus> {
  const [settings, evidence, shadowedProposals] = await Promise.all([
    loadPolicySettings(client),
    dialEvidence(client),
    client.shadowDecision.count({ where: { limitCents: CANDIDATE_LIMITS_CENTS[0] } }),
  ]);
  const limitCents = settings["autonomy.autoApproveLimitCents"];
  const required = settings["autonomy.requiredAgreements"];
  return {
    limitCents,
    requiredAgreements: required,
    policyVersion: policyVersion(settings),
    shadowedProposals,
    candidates: evidence.map((e) => ({ ...e, awaiting: e.wouldAutoApprove - e.agreed - e.disagreed, ...dialVerdict(e, limitCents, required) })),
  };
}
