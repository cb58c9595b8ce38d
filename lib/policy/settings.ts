// Policy settings: the autonomy dial and the limits around it. They live in the database (so every
// instance agrees) and every change is audited; these are the values a new installation starts with.
import { z } from "zod";
import { db as defaultDb, type Db, type DbTx } from "../db";
import { canonicalJson, sha256Hex } from "../contracts/canonical";
import { ROLES } from "../contracts/roles";
import { SERIES_KEYS } from "../contracts/daily-series";

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
  "queue.slaApprovalHours": z
    .number()
    .int()
    .min(1)
    .max(24 * 90),
  "queue.slaHandoffHours": z
    .number()
    .int()
    .min(1)
    .max(24 * 90),
  /** The least role (REVIEWER < SPECIALIST < LEAD < ADMIN) that may publish or retire a policy
   * document; whoever it is, never the version's author (lib/documents/publish-version.ts). */
  "documents.publishRole": z.enum(ROLES),
  /** The share of approved runs, in percent, the annotation queue asks a person to judge (every
   * rejection and edit is asked). */
  "annotation.approvalSharePercent": z.number().int().min(0).max(100),
  /** A threshold per daily series (lib/contracts/daily-series.ts), in the series' unit: a day past it
   * raises one alert through the notification webhook. A series without one raises none. */
  "watch.thresholds": z.partialRecord(z.enum(SERIES_KEYS), z.number().min(0).max(1e12)),
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
  "documents.publishRole": "LEAD",
  "annotation.approvalSharePercent": 10,
  "watch.thresholds": {},
};

/** The policy rules' own version; the settings in force are folded into policyVersion(). */
export const POLICY_RULES_VERSION = "refund-policy-v1";

/**
 * Whether each setting decides refunds: the refund policy, the action policy or the autonomy dial
 * (raising it included) reads it, or what an approval covers depends on it. Only these are folded into
 * policyVersion(), so changing any other setting makes no waiting approval stale. A new setting fails
 * the type check until it is placed here; in doubt, true: a needless stale approval costs a fresh
 * run, a missing one lets a refund be executed under limits nobody saw when it was approved.
 */
export const DECIDES_REFUNDS = {
  "autonomy.autoApproveLimitCents": true,
  // Gates raising the dial (lib/eval/shadow.ts).
  "autonomy.requiredAgreements": true,
  "policy.dailyCapCents": true,
  "policy.specialistThresholdCents": true,
  "policy.twoPersonThresholdCents": true,
  "policy.customerRefundsPerDay": true,
  // Which planner runs when none is named: both are held to the same policy gate, and an approval
  // binds the operation it shows, whichever planner proposed it.
  "agent.defaultPlanner": false,
  // When the queue marks a ticket overdue.
  "queue.slaApprovalHours": false,
  "queue.slaHandoffHours": false,
  // Who may publish decides which people can change the evidence, not what any refund may be: no
  // limit, threshold or approval's operation reads it. A publish itself changes the corpus, and it is
  // the corpus's content hash, bound into what an approval covers, that makes waiting approvals stale;
  // folding this setting in as well would stale every waiting approval when only the list of people
  // who may publish changed.
  "documents.publishRole": false,
  // Which runs a person is asked to judge: evaluation evidence, never a refund's rule.
  "annotation.approvalSharePercent": false,
  // When the leads are warned about a daily series: no refund reads it.
  "watch.thresholds": false,
} as const satisfies Record<keyof TPolicySettings, boolean>;

/**
 * Settings that were folded into the version before they were found to decide no refund. Each stays
 * in the hash at the value it then had by default, so no installation's version moves because of
 * the finding (its waiting approvals stay current), unless it had changed that setting: then once.
 */
const FOLDED_AT_DEFAULT: { [K in keyof TPolicySettings as (typeof DECIDES_REFUNDS)[K] extends false ? K : never]?: TPolicySettings[K] } = {
  "agent.defaultPlanner": "rule",
};

/**
 * The version a decision was made under: the rules and the settings that decide refunds. A change to
 * one of them yields a new version, so an approval bound to the old one goes stale.
 */
export function policyVersion(settings: TPolicySettings): string {
  const decisive = Object.fromEntries(Object.entries(settings).filter(([key]) => DECIDES_REFUNDS[key as keyof TPolicySettings]));
  return `${POLICY_RULES_VERSION}+${sha256Hex(canonicalJson({ ...decisive, ...FOLDED_AT_DEFAULT })).slice(0, 10)}`;
}

/** The settings in force: stored values over the defaults. A stored value of the wrong shape is an
 * error, never silently replaced. */
export async function loadPolicySettings(client: Db | DbTx = defaultDb()): Promise<TPolicySettings> {
  return policySettingsFrom(await client.setting.findMany({ where: { key: { in: POLICY_SETTING_KEYS } } }));
}

export const POLICY_SETTING_KEYS = Object.keys(DEFAULT_SETTINGS);

/** The settings from their stored rows (for callers that read them together with other rows). */
export function policySettingsFrom(rows: readonly { key: string; value: unknown }[]): TPolicySettings {
  const merged = {
    ...DEFAULT_SETTINGS,
    ...Object.fromEntries(rows.filter((r) => POLICY_SETTING_KEYS.includes(r.key)).map((r) => [r.key, r.value])),
  };
  return ZPolicySettings.parse(merged);
}
