// Two runs of one ticket as a person compares them: their steps aligned by position, as the grader
// compares an episode's paths (lib/eval/episode-diff.ts), each pair marked same, changed, added or
// removed, with the parts of a changed step that differ named. Pure: trace rows in, rows out.
//
// What counts as a difference is what the agent or the runtime decided: the action, its arguments,
// the outcome and its reason, the policy's decision and the result. Durations and tokens differ on
// every run and are shown beside each other, never counted as a change; so are the ids a run makes
// for itself (a new proposal's id), which differ between any two runs of the same thing.

/** A trace step, as stored (TTraceStep's fields the comparison reads). */
export interface TComparableStep {
  step: number;
  action: string;
  args: unknown;
  outcome: string;
  reason: string | null;
  result: unknown;
  policyDecision: unknown;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
}

/** same: nothing decided differs; changed: both runs took a step here and something differs;
 * added: only the second run (B) got this far; removed: only the first (A) did. */
export type TStepChange = "same" | "changed" | "added" | "removed";

export const STEP_FIELDS = ["action", "arguments", "outcome", "reason", "policy", "result"] as const;
export type TStepField = (typeof STEP_FIELDS)[number];

export interface TAlignedStep<S extends TComparableStep = TComparableStep> {
  /** 1-based position in both runs. */
  step: number;
  a: S | null;
  b: S | null;
  change: TStepChange;
  /** For a changed step, what differs, in STEP_FIELDS order; empty otherwise. */
  differs: TStepField[];
}

export interface TRunComparison<S extends TComparableStep = TComparableStep> {
  steps: TAlignedStep<S>[];
  /** The first step that is not the same, or null when the runs took the same steps. */
  firstDifference: number | null;
  counts: Record<TStepChange, number>;
}

/** Keys a run gives its own rows, different on every run whatever it decided. */
const OWN_IDS = new Set(["id", "approvalId", "proposalId", "runId"]);

/** JSON with its keys sorted and the run's own ids left out, so equal decisions compare equal. */
function comparable(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(o)
          .filter((k) => !OWN_IDS.has(k))
          .sort()
          .map((k) => [k, walk(o[k])]),
      );
    }
    return v ?? null;
  };
  return JSON.stringify(walk(value));
}

function differences(a: TComparableStep, b: TComparableStep): TStepField[] {
  const differs: Record<TStepField, boolean> = {
    action: a.action !== b.action,
    arguments: comparable(a.args) !== comparable(b.args),
    outcome: a.outcome !== b.outcome,
    reason: (a.reason ?? null) !== (b.reason ?? null),
    policy: comparable(a.policyDecision) !== comparable(b.policyDecision),
    result: comparable(a.result) !== comparable(b.result),
  };
  return STEP_FIELDS.filter((f) => differs[f]);
}

/** Aligns run A's steps with run B's by position (each list in step order). */
export function compareRuns<S extends TComparableStep>(a: readonly S[], b: readonly S[]): TRunComparison<S> {
  const steps: TAlignedStep<S>[] = [];
  const counts: Record<TStepChange, number> = { same: 0, changed: 0, added: 0, removed: 0 };
  let firstDifference: number | null = null;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const left = a[i] ?? null;
    const right = b[i] ?? null;
    const differs = left && right ? differences(left, right) : [];
    const change: TStepChange = !left ? "added" : !right ? "removed" : differs.length ? "changed" : "same";
    if (change !== "same" && firstDifference === null) firstDifference = i + 1;
    counts[change]++;
    steps.push({ step: i + 1, a: left, b: right, change, differs });
  }
  return { steps, firstDifference, counts };
}
