// An episode result as a person compares it: the expected and actual action paths aligned step by
// step (the first differing step marked, exactly where the grader's explanation puts it), and the
// other outcome fields side by side. Pure: the stored JSON goes in, rows for a table come out.

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

/** Aligns two paths by position, as explainDifference compares them. */
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

/** An outcome as stored (expected, or actual; `{notRun: true}` when the episode could not run). */
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

export interface TFieldComparison {
  field: "status" | "reason" | "citations" | "refunds" | "proposal" | "approval" | "executions";
  expected: string;
  actual: string;
  same: boolean;
}

const show = (value: unknown): string => (value === undefined ? "–" : typeof value === "string" ? value : JSON.stringify(value));

/**
 * The outcome's other fields side by side. Optional expectations (proposal, approval, executions)
 * appear only when the episode states them, as the grader checks them only then; citations compare
 * as sets, like the grader's.
 */
export function compareOutcomeFields(expected: TStoredOutcome, actual: TStoredOutcome | null): TFieldComparison[] {
  const rows: TFieldComparison[] = [];
  const add = (field: TFieldComparison["field"], want: unknown, got: unknown, same: boolean) => rows.push({ field, expected: show(want), actual: actual ? show(got) : "(did not run)", same: actual !== null && same });
  add("status", expected.status, actual?.status, expected.status === actual?.status);
  add("reason", expected.reason, actual?.reason, expected.reason === actual?.reason);
  const sorted = (v: string[] | undefined) => JSON.stringify([...(v ?? [])].sort());
  add("citations", expected.citations ?? [], actual?.citations, sorted(expected.citations) === sorted(actual?.citations));
  add("refunds", expected.refunds, actual?.refunds, expected.refunds === actual?.refunds);
  if (expected.proposal !== undefined) {
    const want = expected.proposal as { decision?: string; requiredRole?: string | null } | null;
    const got = (actual?.proposal ?? null) as { decision?: string; requiredRole?: string | null } | null;
    const same = want === null ? got === null : got !== null && want.decision === got.decision && (want.requiredRole === undefined || want.requiredRole === got.requiredRole);
    add("proposal", want, got, same);
  }
  if (expected.approval !== undefined) add("approval", expected.approval, actual?.approval, expected.approval === actual?.approval);
  if (expected.executions !== undefined) add("executions", expected.executions, actual?.executions, JSON.stringify(expected.executions) === JSON.stringify(actual?.executions));
  return rows;
}
