// Changes policy settings. Every change is validated as a whole, written with its audit event in one
// transaction, and yields a new policy version (pending approvals bound to the old one go stale).
// A submission that changes nothing writes nothing (no audit event, same version).
import { mayUse, type Area, type Role } from "../contracts/roles";
import { AppError } from "../contracts/app-error";
import { db, toJson } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { loadPolicySettings, policyVersion, ZPolicySettings, type TPolicySettings } from "./settings";

// Refusals are AppErrors: forbidden, the role may not change a key; invalid, an unknown key or a
// value out of range; stale, the settings changed since the caller read them (expectedPolicyVersion
// no longer holds). The dial's own refusals (insufficient_evidence) are in lib/eval/shadow.ts.

/** Who may change what, as the area whose roles may: the dial itself is the leads' evidence-backed
 * decision (the autonomy area); every other setting is an admin's. */
const EDITORS: Record<keyof TPolicySettings, Area> = {
  "autonomy.autoApproveLimitCents": "autonomy",
  "autonomy.requiredAgreements": "admin",
  "policy.dailyCapCents": "admin",
  "policy.specialistThresholdCents": "admin",
  "policy.twoPersonThresholdCents": "admin",
  "policy.customerRefundsPerDay": "admin",
  "agent.defaultPlanner": "admin",
  "queue.slaApprovalHours": "admin",
  "queue.slaHandoffHours": "admin",
};

// Settings changes are serialised (a two-key advisory lock in a key space of its own), so the
// expected-version check and the write cannot interleave with another change on PostgreSQL.
const SETTINGS_LOCK_NAMESPACE = 0x73657474; // "sett"

export async function updatePolicySettings(input: {
  changes: Partial<TPolicySettings>;
  actor: { id: string; role: Role };
  /** The version the caller's form showed. Given, a change made in between is refused rather than
   * silently overwritten by values the caller never saw. */
  expectedPolicyVersion?: string;
}) {
  const keys = Object.keys(input.changes) as (keyof TPolicySettings)[];
  for (const key of keys) {
    if (!(key in EDITORS)) throw new AppError("invalid", `Unknown setting ${String(key)}.`);
    if (!mayUse(input.actor.role, EDITORS[key])) throw new AppError("forbidden", `A ${input.actor.role.toLowerCase()} may not change ${key}.`);
  }
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SETTINGS_LOCK_NAMESPACE}::int, 0)`;
    const before = await loadPolicySettings(tx);
    if (input.expectedPolicyVersion !== undefined && policyVersion(before) !== input.expectedPolicyVersion) {
      throw new AppError("stale", `Someone changed the settings after you read them (policy ${policyVersion(before)} is in force now), so nothing was saved. Reload to see the settings in force, then make your change again.`);
    }
    const parsed = ZPolicySettings.safeParse({ ...before, ...input.changes });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new AppError("invalid", `${issue.path.join(".")}: ${issue.message}`);
    }
    const after = parsed.data;
    const changed = keys.filter((k) => before[k] !== after[k]);
    if (changed.length === 0) return { settings: before, policyVersion: policyVersion(before), changed };
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: input.actor.id,
      action: "settings.changed",
      subjectType: "settings",
      subjectId: changed.join(",") || null,
      inputs: { before: Object.fromEntries(changed.map((k) => [k, before[k]])), after: Object.fromEntries(changed.map((k) => [k, after[k]])) },
      policyDecision: { policyVersionBefore: policyVersion(before), policyVersionAfter: policyVersion(after) },
    });
    for (const key of changed) {
      await tx.setting.upsert({ where: { key }, create: { key, value: toJson(after[key]), updatedById: input.actor.id }, update: { value: toJson(after[key]), updatedById: input.actor.id } });
    }
    return { settings: after, policyVersion: policyVersion(after), changed };
  });
}
