// Changes policy settings. Every change is validated as a whole and written with its audit event in
// one transaction; a change to a setting that decides refunds yields a new policy version (pending
// approvals bound to the old one go stale), any other keeps it (settings.ts, DECIDES_REFUNDS).
// A submission that changes nothing writes nothing (no audit event, same version).
import { mayUse, type Area, type Role } from "../contracts/roles";
import { AppError } from "../contracts/app-error";
import { db, toJson } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { canonicalJson } from "../contracts/canonical";
import { loadPolicySettings, policyVersion, ZPolicySettings, type TPolicySettings } from "./settings";

// Refusals are AppErrors: forbidden, the role may not change a key; invalid, an unknown key or a
// value out of range; stale, the settings changed since the caller read them (expectedPolicyVersion
// no longer holds); planner_unavailable, the model planner made the default where it cannot run
// (every run without a planner of its own would then be refused). The dial's own refusals
// (insufficient_evidence) are in lib/eval/shadow.ts.

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
  "documents.publishRole": "admin",
  "annotation.approvalSharePercent": "admin",
  // The leads watch the daily series: their thresholds are theirs.
  "watch.thresholds": "evals",
};

// Settings changes are serialised (a two-key advisory lock in a key space of its own), so the
// expected-version check and the write cannot interleave with another change on PostgreSQL.
const SETTINGS_LOCK_NAMESPACE = 0x73657474; // "sett"

/** Whether the model planner can run here, and if not why: lib/llm/provider.ts (llmAvailability)
 * knows, above this layer, so the caller passes it in. */
export type TModelPlannerAvailability = { available: true } | { available: false; reason: string };

/** Making the model planner the default needs a model; a planner already the default is left alone,
 * so a model gone since does not block saving the other settings. */
function assertDefaultPlannerCanRun(
  changed: readonly (keyof TPolicySettings)[],
  after: TPolicySettings,
  model: TModelPlannerAvailability | undefined,
) {
  if (!changed.includes("agent.defaultPlanner") || after["agent.defaultPlanner"] !== "model" || model?.available) return;
  const why = model ? model.reason : "Whether a model is configured was not checked.";
  throw new AppError(
    "planner_unavailable",
    `The model planner cannot be the default: it cannot run here. ${why} Nothing was saved.`,
    "agent.defaultPlanner",
  );
}

export async function updatePolicySettings(input: {
  changes: Partial<TPolicySettings>;
  actor: { id: string; role: Role };
  /** The version the caller's form showed. Given, a change made in between is refused rather than
   * silently overwritten by values the caller never saw. */
  expectedPolicyVersion?: string;
  /** Needed to make the model planner the default; without it, that change is refused. */
  modelPlanner?: TModelPlannerAvailability;
}) {
  const keys = Object.keys(input.changes) as (keyof TPolicySettings)[];
  for (const key of keys) {
    if (!(key in EDITORS)) throw new AppError("invalid", `Unknown setting ${String(key)}.`);
    if (!mayUse(input.actor.role, EDITORS[key]))
      throw new AppError("forbidden", `A ${input.actor.role.toLowerCase()} may not change ${key}.`);
  }
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SETTINGS_LOCK_NAMESPACE}::int, 0)`;
    const before = await loadPolicySettings(tx);
    if (input.expectedPolicyVersion !== undefined && policyVersion(before) !== input.expectedPolicyVersion) {
      throw new AppError(
        "stale",
        `Someone changed the settings after you read them (policy ${policyVersion(before)} is in force now), so nothing was saved. Reload to see the settings in force, then make your change again.`,
      );
    }
    const parsed = ZPolicySettings.safeParse({ ...before, ...input.changes });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new AppError("invalid", `${issue.path.join(".")}: ${issue.message}`);
    }
    const after = parsed.data;
    // By value: a setting may be an object (the series' thresholds), a new one at every parse.
    const changed = keys.filter((k) => canonicalJson(before[k]) !== canonicalJson(after[k]));
    const policyVersionBefore = policyVersion(before);
    if (changed.length === 0) return { settings: before, policyVersion: policyVersionBefore, policyVersionBefore, changed };
    assertDefaultPlannerCanRun(changed, after, input.modelPlanner);
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: input.actor.id,
      action: "settings.changed",
      subjectType: "settings",
      subjectId: changed.join(",") || null,
      inputs: {
        before: Object.fromEntries(changed.map((k) => [k, before[k]])),
        after: Object.fromEntries(changed.map((k) => [k, after[k]])),
      },
      policyDecision: { policyVersionBefore, policyVersionAfter: policyVersion(after) },
    });
    for (const key of changed) {
      await tx.setting.upsert({
        where: { key },
        create: { key, value: toJson(after[key]), updatedById: input.actor.id },
        update: { value: toJson(after[key]), updatedById: input.actor.id },
      });
    }
    return { settings: after, policyVersion: policyVersion(after), policyVersionBefore, changed };
  });
}
