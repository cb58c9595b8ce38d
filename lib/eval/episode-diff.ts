// The one comparison of an episode's outcome, expected against actual (compareOutcome). The grader's
// verdict and explanation (explainDifference) and the evaluation page's side-by-side view
// (episodeComparison) are both read off it, so the page marks exactly the fields, and the path step,
// the grader named: two copies of the rules drifted apart once, and a page that disagrees with the
// receipt it shows is worse than none. Pure: outcomes (as graded, or as stored JSON) in, rows out.

export interface TPathStep {
  /** 1-based, as the grader's explanation counts. */
  step: number;
  /** null: this path had already ended ("(end)" in the explanation). */
  expected: string | null;
  actual: string | null;
  same: boolean;
}

export interface TPathDiff {
  steps: TPathStep[];
  /** The 1-based step where the paths first differ, or null when they agree. */
  firstDifference: number | null;
}

/** Aligns two paths by position: the path part of compareOutcome. */
export function diffPaths(expected: readonly string[], actual: readonly string[] | null): TPathDiff {
  const got = actual ?? [];
  const steps: TPathStep[] = [];
  let firstDifference: number | null = null;
  for (let i = 0; i < Math.max(expected.length, got.length); i++) {
    const e = expected[i] ?? null;
    const a = actual ? (got[i] ?? null) : null;
    const same = actual !== null && e === a;
    if (!same && firstDifference === null) firstDifference = i + 1;
    steps.push({ step: i + 1, expected: e, actual: a, same });
  }
  return { steps, firstDifference };
}

/** An outcome as graded or stored (expected, or actual; stored as `{notRun: true}` when the episode could not run). */
export interface TStoredOutcome {
  status?: string;
  reason?: string;
  path: string[];
  citations?: string[];
  refunds?: number;
  proposal?: unknown;
  approval?: string;
  executions?: string[];
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/** Reads a stored outcome defensively: null when it is not one (an episode that never ran). */
export function readOutcome(json: unknown): TStoredOutcome | null {
  if (!json || typeof json !== "object" || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  if (o.notRun === true || !isStringArray(o.path)) return null;
  return {
    status: typeof o.status === "string" ? o.status : undefined,
    reason: typeof o.reason === "string" ? o.reason : undefined,
    path: o.path,
    citations: isStringArray(o.citations) ? o.citations : undefined,
    refunds: typeof o.refunds === "number" ? o.refunds : undefined,
    proposal: "proposal" in o ? o.proposal : undefined,
    approval: typeof o.approval === "string" ? o.approval : undefined,
    executions: isStringArray(o.executions) ? o.executions : undefined,
  };
}

/** The fields an outcome is compared on, in the order the grader's explanation names them. */
export type TOutcomeField = "status" | "reason" | "path" | "citations" | "refunds" | "proposal" | "approval" | "executions";

/** One field compared: both values as they are (the explanation writes them as JSON, the page shows them). */
export interface TComparedField {
  field: TOutcomeField;
  expected: unknown;
  actual: unknown;
  same: boolean;
}

export interface TOutcomeComparison {
  /** Every field compared, in TOutcomeField's order; the optional ones only when the episode states them. */
  fields: TComparedField[];
  path: TPathDiff;
}

type TProposal = { decision?: string; requiredRole?: string | null } | null;

/**
 * Expected against actual (null: the episode could not run, and nothing is the same). Citations
 * compare as sets; a proposal by its decision, and by its role only when the episode names one; the
 * optional expectations (proposal, approval, executions) only when the episode states them.
 */
export function compareOutcome(expected: TStoredOutcome, actual: TStoredOutcome | null): TOutcomeComparison {
  const fields: TComparedField[] = [];
  const add = (field: TOutcomeField, want: unknown, got: unknown, same: boolean) => fields.push({ field, expected: want, actual: got, same: actual !== null && same });
  const path = diffPaths(expected.path, actual?.path ?? null);
  add("status", expected.status, actual?.status, expected.status === actual?.status);
  add("reason", expected.reason, actual?.reason, expected.reason === actual?.reason);
  add("path", expected.path, actual?.path, path.firstDifference === null);
  const sorted = (v: string[] | undefined) => JSON.stringify([...(v ?? [])].sort());
  add("citations", expected.citations ?? [], actual?.citations, sorted(expected.citations) === sorted(actual?.citations));
  add("refunds", expected.refunds, actual?.refunds, expected.refunds === actual?.refunds);
  if (expected.proposal !== undefined) {
    const want = expected.proposal as TProposal;
    const got = (actual?.proposal ?? null) as TProposal;
    add("proposal", want, got, want === null ? got === null : got !== null && want.decision === got.decision && (want.requiredRole === undefined || want.requiredRole === got.requiredRole));
  }
  if (expected.approval !== undefined) add("approval", expected.approval, actual?.approval, expected.approval === actual?.approval);
  if (expected.executions !== undefined) add("executions", expected.executions, actual?.executions, JSON.stringify(expected.executions) === JSON.stringify(actual?.executions));
  return { fields, path };
}

/** What differs between expected and actual, in words (the receipt's explanation); null when nothing does. */
export function explainDifference(expected: TStoredOutcome, actual: TStoredOutcome): string | null {
  const { fields, path } = compareOutcome(expected, actual);
  const problems = fields
    .filter((f) => !f.same)
    .map((f) => {
      if (f.field !== "path") return `${f.field}: expected ${JSON.stringify(f.expected)}, got ${JSON.stringify(f.actual)}`;
      const step = path.steps[path.firstDifference! - 1]!;
      return `path differs at step ${step.step}: expected ${step.expected ?? "(end)"}, got ${step.actual ?? "(end)"} — expected [${expected.path.join(" → ")}], actual [${actual.path.join(" → ")}]`;
    });
  return problems.length ? problems.join("; ") : null;
}

/** A field beside the path, as the page shows it: both values in words. */
export interface TFieldComparison {
  field: Exclude<TOutcomeField, "path">;
  expected: string;
  actual: string;
  same: boolean;
}

const show = (value: unknown): string => (value === undefined ? "–" : typeof value === "string" ? value : JSON.stringify(value));

const inWords = (fields: readonly TComparedField[], ran: boolean): TFieldComparison[] =>
  fields.flatMap((f) => (f.field === "path" ? [] : [{ field: f.field, expected: show(f.expected), actual: ran ? show(f.actual) : "(did not run)", same: f.same }]));

/** The outcome's fields but the path (shown step by step), expected beside actual, in words. */
export function compareOutcomeFields(expected: TStoredOutcome, actual: TStoredOutcome | null): TFieldComparison[] {
  return inWords(compareOutcome(expected, actual).fields, actual !== null);
}

/** A stored episode row as the evaluation page shows it: the paths step by step and the other fields side by side. */
export function episodeComparison(row: { expected: unknown; actual: unknown }): { path: TPathDiff; fields: TFieldComparison[] } {
  const expected = readOutcome(row.expected) ?? { path: [] };
  const actual = readOutcome(row.actual);
  const { fields, path } = compareOutcome(expected, actual);
  return { path, fields: inWords(fields, actual !== null) };
}
