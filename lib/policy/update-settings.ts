// Changes policy settings. Every change is validated as a whole, written with its audit event in one
// transaction, and yields a new policy version (pending approvals bound to the old one go stale).
import type { Role } from "../../generated/prisma/enums";
import { db, toJson } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { loadPolicySettings, policyVersion, ZPolicySettings, type TPolicySettings } from "./settings";

export class SettingsError extends Error {
  constructor(readonly code: "forbidden" | "invalid", message: string) {
    super(message);
  }
}

/** Who may change what: the dial itself is the leads' evidence-backed decision (see the autonomy
 * part); every other setting is an admin's. */
const EDITORS: Record<keyof TPolicySettings, readonly Role[]> = {
  "autonomy.autoApproveLimitCents": ["LEAD", "ADMIN"],
  "autonomy.requiredAgreements": ["ADMIN"],
  "policy.dailyCapCents": ["ADMIN"],
  "policy.specialistThresholdCents": ["ADMIN"],
  "policy.customerRefundsPerDay": ["ADMIN"],
  "agent.defaultPlanner": ["ADMIN"],
};

export async function updatePolicySettings(input: { changes: Partial<TPolicySettings>; actor: { id: string; role: Role } }) {
  const keys = Object.keys(input.changes) as (keyof TPolicySettings)[];
  for (const key of keys) {
    if (!(key in EDITORS)) throw new SettingsError("invalid", `Unknown setting ${String(key)}.`);
    if (!EDITORS[key].includes(input.actor.role)) throw new SettingsError("forbidden", `A ${input.actor.role.toLowerCase()} may not change ${key}.`);
  }
  return db().$transaction(async (tx) => {
    const before = await loadPolicySettings(tx);
    const parsed = ZPolicySettings.safeParse({ ...before, ...input.changes });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new SettingsError("invalid", `${issue.path.join(".")}: ${issue.message}`);
    }
    const after = parsed.data;
    const changed = keys.filter((k) => before[k] !== after[k]);
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
