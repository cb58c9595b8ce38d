// Policy settings: the autonomy dial and the limits around it. They live in the database (so every
// instance agrees) and every change is audited; these are the values a new installation starts with.
import { z } from "zod";
import type { Db, DbTx } from "../db";
import { canonicalJson, sha256Hex } from "../contracts/canonical";

export const ZPolicySettings = z.strictObject({
  /** The autonomy dial: refunds at or below this may be auto-approved. Starts at zero: nothing is. */
  "autonomy.autoApproveLimitCents": z.number().int().min(0),
  /** Agreeing shadow decisions required, with no disagreement, before the dial may be raised. */
  "autonomy.requiredAgreements": z.number().int().min(1),
  /** Total auto-approved refunds per day, across all customers. */
  "policy.dailyCapCents": z.number().int().min(0),
  /** At or above this amount a specialist must approve. */
  "policy.specialistThresholdCents": z.number().int().positive(),
  /** At or above this amount two different people must approve, neither of whom started the run. */
  "policy.twoPersonThresholdCents": z.number().int().positive(),
  /** Refund proposals per customer per day before the rate limit denies them. */
  "policy.customerRefundsPerDay": z.number().int().positive(),
  "agent.defaultPlanner": z.enum(["rule", "model"]),
  /** Queue SLA targets in wall-clock hours: how long a ticket may wait with a request awaiting
   * approval, and handed to a person with nothing to approve, before it is overdue. */
  "queue.slaApprovalHours": z.number().int().min(1).max(24 * 90),
  "queue.slaHandoffHours": z.number().int().min(1).max(24 * 90),
});
export type TPolicySettings = z.infer<typeof ZPolicySettings>;

export const DEFAULT_SETTINGS: TPolicySettings = {
  "autonomy.autoApproveLimitCents": 0,
  "autonomy.requiredAgreements": 200,
  "policy.dailyCapCents": 50_000,
  "policy.specialistThresholdCents": 50_000,
  "policy.twoPersonThresholdCents": 100_000,
  "policy.customerRefundsPerDay": 3,
  "agent.defaultPlanner": "rule",
  "queue.slaApprovalHours": 4,
  "queue.slaHandoffHours": 24,
};


/** The policy rules' own version; the settings in force are folded into policyVersion(). */
export const POLICY_RULES_VERSION = "refund-policy-v1";

/**
 * The version a decision was made under: the rules and the settings in force. Any settings change
 * yields a new version, so an approval bound to the old one goes stale.
 */
export function policyVersion(settings: TPolicySettings): string {
  // The queue's SLA targets decide no refund: changing one must not make pending approvals stale.
  const decisive = Object.fromEntries(Object.entries(settings).filter(([key]) => !key.startsWith("queue.")));
  return `${POLICY_RULES_VERSION}+${sha256Hex(canonicalJson(decisive)).slice(0, 10)}`;
}

/** The settings in force: stored values over the defaults. A stored value of the wrong shape is an
 * error, never silently replaced. */
export async function loadPolicySettings(client: Db | DbTx): Promise<TPolicySettings> {
  return policySettingsFrom(await client.setting.findMany({ where: { key: { in: POLICY_SETTING_KEYS } } }));
}

export const POLICY_SETTING_KEYS = Object.keys(DEFAULT_SETTINGS);

/** The settings from their stored rows (for callers that read them together with other rows). */
export function policySettingsFrom(rows: readonly { key: string; value: unknown }[]): TPolicySettings {
  const merged = { ...DEFAULT_SETTINGS, ...Object.fromEntries(rows.filter((r) => POLICY_SETTING_KEYS.includes(r.key)).map((r) => [r.key, r.value])) };
  return ZPolicySettings.parse(merged);
}
