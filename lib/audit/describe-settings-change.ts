// A settings.changed event in words: which settings, from what to what. The policy settings record
// the changed keys before and after (lib/policy/update-settings.ts); the notification settings record
// their whole described state before and after, the webhook and the secret only by origin and
// fingerprint (lib/policy/notification-settings.ts), so only what differs is named.
import { formatMoney, SETTINGS_CURRENCY } from "../contracts/money";

type TSettingWords = { label: string; value: (v: unknown) => string | null };

const money = (v: unknown) => (typeof v === "number" ? formatMoney(v, SETTINGS_CURRENCY) : null);
const number = (unit: string) => (v: unknown) => (typeof v === "number" ? `${v}${unit}` : null);
const word = (v: unknown) => (typeof v === "string" && v ? v : null);
const field = (v: unknown, key: string) => (v && typeof v === "object" && key in v ? word((v as Record<string, unknown>)[key]) : null);
const thresholdCount = (v: unknown) => {
  if (!v || typeof v !== "object") return word(v);
  const set = Object.values(v as Record<string, unknown>).filter((t) => t !== null && t !== undefined).length;
  return set === 0 ? "none set" : `${set} set`;
};
/** A value the event names only by a fingerprint (a webhook, a secret): what it is, and which. */
const fingerprinted = (shown: (v: unknown) => string | null) => (v: unknown) => {
  if (v === null) return "none";
  const [what, which] = [shown(v), field(v, "fingerprint")];
  return what && which ? `${what} (${which})` : null;
};

// Keyed as the events record them. lib/policy sits above this layer, so the keys are written here;
// describe-event.test.ts holds this table to every policy and notification setting.
const POLICY_SETTINGS: Record<string, TSettingWords> = {
  "autonomy.autoApproveLimitCents": { label: "auto-approve limit (the autonomy dial)", value: money },
  "autonomy.requiredAgreements": { label: "shadow agreements needed to raise the dial", value: number("") },
  "policy.dailyCapCents": { label: "daily cap on auto-approved refunds", value: money },
  "policy.specialistThresholdCents": { label: "specialist approval threshold", value: money },
  "policy.twoPersonThresholdCents": { label: "two-person approval threshold", value: money },
  "policy.customerRefundsPerDay": { label: "refund proposals per customer per day", value: number("") },
  "agent.defaultPlanner": { label: "default planner", value: word },
  "queue.slaApprovalHours": { label: "SLA for a ticket awaiting approval", value: number(" h") },
  "queue.slaHandoffHours": { label: "SLA for a ticket handed to a person", value: number(" h") },
  "documents.publishRole": { label: "least role that may publish policy documents", value: (v) => word(v)?.toLowerCase() ?? null },
  "annotation.approvalSharePercent": { label: "share of approved runs sampled for annotation", value: number("%") },
  // The daily series' alert thresholds, by series: how many are set (the page shows each).
  "watch.thresholds": { label: "daily series' alert thresholds", value: thresholdCount },
};
const NOTIFICATION_SETTINGS: Record<string, TSettingWords> = {
  webhook: { label: "webhook", value: fingerprinted((v) => field(v, "origin")) },
  secret: { label: "signing secret", value: fingerprinted(() => "set") },
  reminderLeadMinutes: { label: "reminder lead time", value: number(" min") },
};

const record = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** "changed the policy settings: daily cap on auto-approved refunds 500.00 USD → 750.00 USD". */
export function describeSettingsChange(inputs: Record<string, unknown>): string {
  const [before, after] = [record(inputs.before), record(inputs.after)];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
  const notification = keys.length > 0 && keys.every((k) => k in NOTIFICATION_SETTINGS);
  const words = notification ? NOTIFICATION_SETTINGS : POLICY_SETTINGS;
  const changes = keys.map((k) => {
    const shown = (v: unknown) =>
      v === undefined ? "unset" : (words[k]?.value(v) ?? (typeof v === "object" && v !== null ? "another value" : String(v)));
    return `${words[k]?.label ?? k} ${shown(before[k])} → ${shown(after[k])}`;
  });
  return `changed the ${notification ? "notification" : "policy"} settings${changes.length ? `: ${changes.join("; ")}` : ""}`;
}
