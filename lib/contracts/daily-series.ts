// The daily series the leads watch (lib/eval/daily-series.ts computes them, the Daily page draws
// them, settings hold a threshold per series, lib/eval/series-alerts.ts raises the alerts): one list
// of keys, its words and the direction in which a series is a worry.
import type { TStopReason } from "./reason-codes";

export const SERIES_KEYS = [
  "ticketsIn",
  "admitted",
  "bypassed",
  "handoffs",
  "groundingRefusals",
  "autoApprovals",
  "shadowAgreement",
  "approvalWaitMedian",
  "approvalWaitP90",
  "refunds",
  "refundedCents",
  "costUsd",
] as const;
export type TSeriesKey = (typeof SERIES_KEYS)[number];

/** How a value reads: a count, a percentage, minutes, cents, US dollars. */
export type TSeriesUnit = "count" | "percent" | "minutes" | "cents" | "usd";

export interface TSeriesInfo {
  label: string;
  description: string;
  unit: TSeriesUnit;
  /** `above`: a day over the threshold is a worry (most); `below`: a day under it is (agreement). */
  alertWhen: "above" | "below";
}

export const SERIES: Record<TSeriesKey, TSeriesInfo> = {
  ticketsIn: { label: "Tickets in", description: "Tickets received that day, by any source.", unit: "count", alertWhen: "above" },
  admitted: { label: "Admitted", description: "Tickets admitted to the guarded agent.", unit: "count", alertWhen: "above" },
  bypassed: { label: "Bypassed", description: "Tickets that went straight to a person, never to the agent.", unit: "count", alertWhen: "above" },
  handoffs: { label: "Handoffs", description: "Live runs handed to a person (needs human), every reason.", unit: "count", alertWhen: "above" },
  groundingRefusals: {
    label: "Grounding refusals",
    description: "Live runs that stopped because no approved policy answered the ticket.",
    unit: "count",
    alertWhen: "above",
  },
  autoApprovals: { label: "Auto-approvals", description: "Refunds approved by the system within the autonomy dial.", unit: "count", alertWhen: "above" },
  shadowAgreement: {
    label: "Shadow agreement",
    description: "Shadow decisions a person has decided that agree with that person, in percent.",
    unit: "percent",
    alertWhen: "below",
  },
  approvalWaitMedian: {
    label: "Approval wait, median",
    description: "Minutes from a request to its first decision by a person, for requests decided that day.",
    unit: "minutes",
    alertWhen: "above",
  },
  approvalWaitP90: {
    label: "Approval wait, 90th percentile",
    description: "The same wait, for the slowest tenth of that day's decisions.",
    unit: "minutes",
    alertWhen: "above",
  },
  refunds: { label: "Refunds", description: "Refunds written to the ledger (failed or canceled ones left out).", unit: "count", alertWhen: "above" },
  refundedCents: { label: "Refunded", description: "The total of those refunds.", unit: "cents", alertWhen: "above" },
  costUsd: { label: "Cost", description: "What agent runs and evaluations cost, at the prices configured.", unit: "usd", alertWhen: "above" },
};

/** The stop reasons that are a grounding refusal: the evidence did not answer the ticket. */
export const GROUNDING_REASONS = ["no_approved_evidence", "evidence_off_topic"] as const satisfies readonly TStopReason[];

/** How many days the Daily page shows, today included. */
export const SERIES_DAYS = 28;
