// Two evaluation runs compared episode by episode, as a lead reads a new agent version against the
// last: which episodes it fixed (failed in A, pass in B), which it broke (passed in A, fail in B),
// which stayed as they were, and which only one run graded. An episode passes a run when it passed
// in every trial (pass^k). Each changed episode carries the path diff between the two runs' first
// trials (A's path where the grader puts the expected one, B's as the actual), and each side carries
// its release decision. Pure: rows in, comparison out; load-run-comparison.ts reads the rows.
import { diffPaths, readOutcome, type TPathDiff } from "./episode-diff";

export interface TComparedRow {
  episodeId: string;
  trial: number;
  passed: boolean;
  actual: unknown;
  explanation: string | null;
}

export type TEpisodeChange = "fixed" | "broken" | "unchanged" | "only_a" | "only_b";

export interface TSideOutcome {
  passed: boolean;
  status: string | null;
  reason: string | null;
  path: string[] | null;
  explanation: string | null;
}

export interface TEpisodeComparison {
  episodeId: string;
  change: TEpisodeChange;
  a: TSideOutcome | null;
  b: TSideOutcome | null;
  /** A's path against B's, for a fixed or broken episode. */
  pathDiff: TPathDiff | null;
}

export interface TRunComparison {
  episodes: TEpisodeComparison[];
  counts: Record<TEpisodeChange, number>;
}

function sides(rows: readonly TComparedRow[]): Map<string, TSideOutcome> {
  const byEpisode = new Map<string, TComparedRow[]>();
  for (const row of rows) byEpisode.set(row.episodeId, [...(byEpisode.get(row.episodeId) ?? []), row]);
  const out = new Map<string, TSideOutcome>();
  for (const [id, trials] of byEpisode) {
    const first = [...trials].sort((x, y) => x.trial - y.trial)[0]!;
    const failed = trials.find((t) => !t.passed);
    const outcome = readOutcome(first.actual);
    out.set(id, {
      passed: !failed,
      status: outcome?.status ?? null,
      reason: outcome?.reason ?? null,
      path: outcome?.path ?? null,
      explanation: (failed ?? first).explanation,
    });
  }
  return out;
}

function changeOf(a: TSideOutcome | null, b: TSideOutcome | null): TEpisodeChange {
  if (!a) return "only_b";
  if (!b) return "only_a";
  if (a.passed === b.passed) return "unchanged";
  return b.passed ? "fixed" : "broken";
}

/** The order a lead reads them in: what broke, what was fixed, then the rest. */
const ORDER: Record<TEpisodeChange, number> = { broken: 0, fixed: 1, only_a: 2, only_b: 3, unchanged: 4 };

export function compareRuns(aRows: readonly TComparedRow[], bRows: readonly TComparedRow[]): TRunComparison {
  const [a, b] = [sides(aRows), sides(bRows)];
  const ids = [...new Set([...a.keys(), ...b.keys()])];
  const counts: Record<TEpisodeChange, number> = { fixed: 0, broken: 0, unchanged: 0, only_a: 0, only_b: 0 };
  const episodes = ids.map((episodeId) => {
    const [sa, sb] = [a.get(episodeId) ?? null, b.get(episodeId) ?? null];
    const change = changeOf(sa, sb);
    counts[change]++;
    const pathDiff = (change === "fixed" || change === "broken") ? diffPaths(sa!.path ?? [], sb!.path) : null;
    return { episodeId, change, a: sa, b: sb, pathDiff };
  });
  episodes.sort((x, y) => ORDER[x.change] - ORDER[y.change] || x.episodeId.localeCompare(y.episodeId));
  return { episodes, counts };
}
