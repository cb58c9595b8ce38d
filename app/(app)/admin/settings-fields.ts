// The policy settings as the admin form shows them: a label in words, amounts in USD (the settings
// store cents), and the zod schema that turns the form back into settings. Shared by the page, the
// form and the action, so a setting added to lib/policy/settings.ts fails the type check here until
// it has a label.
import { z } from "zod";
import { plainText } from "@/lib/contracts/text";
import { ROLES } from "@/lib/contracts/roles";
import type { TPolicySettings } from "@/lib/policy/settings";

// This module reaches the browser (the admin form), where zod would probe `new Function` to compile
// its object parsers; the Content-Security-Policy refuses eval, and Chromium reports the caught probe
// as a violation. In the browser zod interprets instead. Before the first schema below is built.
if (typeof window !== "undefined") z.config({ jitless: true });

type TKey = keyof TPolicySettings;
export interface TSettingField {
  key: TKey;
  /** The form field's name. */
  name: string;
  kind: "usd" | "count" | "planner" | "role";
  label: string;
  help: string;
  /** Shown, not edited here: changed elsewhere, under rules of its own. */
  readOnly?: boolean;
}

export const SETTING_FIELDS = [
  {
    key: "autonomy.autoApproveLimitCents",
    name: "autoApproveLimitUsd",
    kind: "usd",
    label: "Auto-approve limit (the autonomy dial)",
    help: "Refunds at or below this amount may be approved without a person; at 0.00 every refund needs one. The dial is moved on the Autonomy page, and raising it needs agreeing shadow evidence.",
    // Not editable here: raising the dial without the evidence check (lib/eval/shadow.ts,
    // setAutonomyLimit) would bypass the one rule that keeps autonomy earned.
    readOnly: true,
  },
  {
    key: "autonomy.requiredAgreements",
    name: "requiredAgreements",
    kind: "count",
    label: "Shadow agreements needed to raise the dial",
    help: "Shadow decisions that must agree with people, with no disagreement, before the dial may be raised.",
  },
  {
    key: "policy.dailyCapCents",
    name: "dailyCapUsd",
    kind: "usd",
    label: "Daily cap on auto-approved refunds",
    help: "The most the agent may have auto-approved in one day, across all customers. Above it, refunds wait for a person.",
  },
  {
    key: "policy.specialistThresholdCents",
    name: "specialistThresholdUsd",
    kind: "usd",
    label: "Specialist approval threshold",
    help: "Refunds at or above this amount need a specialist (or an admin) to approve them.",
  },
  {
    key: "policy.twoPersonThresholdCents",
    name: "twoPersonThresholdUsd",
    kind: "usd",
    label: "Two-person approval threshold",
    help: "Refunds at or above this amount need approvals from two different people, neither of whom started the agent's run.",
  },
  {
    key: "policy.customerRefundsPerDay",
    name: "customerRefundsPerDay",
    kind: "count",
    label: "Refund proposals per customer per day",
    help: "Further proposals for the same customer that day are denied by the rate limit.",
  },
  {
    key: "agent.defaultPlanner",
    name: "defaultPlanner",
    kind: "planner",
    label: "Default planner",
    help:
      "Which planner runs the agent when a run does not name one. Both are held to the same checks. " +
      "The model planner can be the default only where a model is configured.",
  },
  {
    key: "queue.slaApprovalHours",
    name: "slaApprovalHours",
    kind: "count",
    label: "SLA: hours a ticket may await approval",
    help: "Wall-clock hours from a ticket's arrival while a request on it waits for a decision; past it the queue marks the ticket overdue.",
  },
  {
    key: "queue.slaHandoffHours",
    name: "slaHandoffHours",
    kind: "count",
    label: "SLA: hours a ticket handed to a person may wait",
    help: "Wall-clock hours from a ticket's arrival while it waits for a person with nothing to approve (handed off, blocked or bypassed); past it the queue marks it overdue.",
  },
  {
    key: "documents.publishRole",
    name: "publishRole",
    kind: "role",
    label: "Least role that may publish policy documents",
    help: "Publishing or retiring a policy document needs this role or a higher one (reviewer, specialist, lead, admin), and never the version's author or whoever sent it to review.",
  },
  {
    key: "annotation.approvalSharePercent",
    name: "annotationSharePercent",
    kind: "count",
    label: "Approved runs sampled for annotation (%)",
    help: "The share of approved agent runs the Annotations page asks a person to judge, from 0 to 100. Every rejected or edited run is asked.",
  },
] as const satisfies readonly TSettingField[];

export const PLANNER_LABELS: Record<TPolicySettings["agent.defaultPlanner"], string> = {
  rule: "Rule planner (no network)",
  model: "Model planner (LLM endpoint)",
};

/** Whether the model planner can run on this server, and if not why (without its configuration, which
 * stays on the server). */
export type TModelPlannerState = { available: true } | { available: false; reason: string };

/** A planner as the form's option names it: the model planner says when it cannot run here. */
export function plannerOptionLabel(planner: TPolicySettings["agent.defaultPlanner"], model: TModelPlannerState): string {
  return planner === "model" && !model.available ? "Model planner (unavailable)" : PLANNER_LABELS[planner];
}

export type TSettingName = (typeof SETTING_FIELDS)[number]["name"];
export type TSettingValues = Record<TSettingName, string>;

/** 50000 → "500.00": cents as the USD amount a person types. */
export function centsToUsd(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** The settings as the form's text values. */
export function settingsToValues(settings: TPolicySettings): TSettingValues {
  const values = {} as TSettingValues;
  for (const field of SETTING_FIELDS) {
    const value = settings[field.key];
    values[field.name] = field.kind === "usd" ? centsToUsd(value as number) : String(value);
  }
  return values;
}

const USD = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d{1,10})(?:\.(\d{1,2}))?$/;

/** "1,250.5" → 125050. Parsed as text, never through a float, so 0.29 stays 29 cents. */
function ZUsd(minCents: 0 | 1) {
  return z
    .string()
    .trim()
    .regex(USD, "Enter an amount in USD, like 500 or 500.00.")
    .transform((text) => {
      const [, whole, fraction = ""] = USD.exec(text)!;
      return Number(whole!.replaceAll(",", "")) * 100 + Number(fraction.padEnd(2, "0"));
    })
    .refine((cents) => cents >= minCents, minCents === 0 ? "Must be 0.00 or more." : "Must be more than 0.00.")
    .refine((cents) => Number.isSafeInteger(cents), "That amount is too large.");
}

function ZCount(min: 0 | 1) {
  return z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, "Enter a whole number.")
    .transform(Number)
    .refine((n) => n >= min, `Must be at least ${min}.`);
}

const ZPlanner = z.enum(["rule", "model"], { message: "Choose a planner." });
const ZRole = z.enum(ROLES, { message: "Choose a role." });

type TEditable = Exclude<(typeof SETTING_FIELDS)[number], { readOnly: true }>["name"];

/** The form's fields → every policy setting this page edits, plus the version the form was showing. */
export const ZPolicySettingsForm = z
  .object({
    policyVersion: plainText(z.string().min(1).max(200)),
    requiredAgreements: ZCount(1),
    dailyCapUsd: ZUsd(0),
    specialistThresholdUsd: ZUsd(1),
    twoPersonThresholdUsd: ZUsd(1),
    customerRefundsPerDay: ZCount(1),
    defaultPlanner: ZPlanner,
    slaApprovalHours: ZCount(1).refine((n) => n <= 24 * 90, "At most 2160 hours (90 days)."),
    slaHandoffHours: ZCount(1).refine((n) => n <= 24 * 90, "At most 2160 hours (90 days)."),
    publishRole: ZRole,
    annotationSharePercent: ZCount(0).refine((n) => n <= 100, "At most 100 (every approved run)."),
  } satisfies Record<TEditable | "policyVersion", z.ZodType>)
  .transform(({ policyVersion, ...form }) => ({
    expectedPolicyVersion: policyVersion,
    settings: {
      "autonomy.requiredAgreements": form.requiredAgreements,
      "policy.dailyCapCents": form.dailyCapUsd,
      "policy.specialistThresholdCents": form.specialistThresholdUsd,
      "policy.twoPersonThresholdCents": form.twoPersonThresholdUsd,
      "policy.customerRefundsPerDay": form.customerRefundsPerDay,
      "agent.defaultPlanner": form.defaultPlanner,
      "queue.slaApprovalHours": form.slaApprovalHours,
      "queue.slaHandoffHours": form.slaHandoffHours,
      "documents.publishRole": form.publishRole,
      "annotation.approvalSharePercent": form.annotationSharePercent,
    } satisfies Omit<TPolicySettings, "autonomy.autoApproveLimitCents" | "watch.thresholds">,
  }));
