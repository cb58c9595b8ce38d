// Two stored evaluation runs, read for their comparison (compare-runs.ts): each run's summary and
// latest release decision, and every episode row of both.
import { db as defaultDb, type Db } from "../db";
import { compareRuns, type TRunComparison } from "./compare-runs";
import { loadEvalRun, type TEvalRunDetail } from "./list-eval-runs";

export interface TLoadedComparison {
  a: TEvalRunDetail;
  b: TEvalRunDetail;
  comparison: TRunComparison;
}

async function rowsOf(client: Db, evalRunId: string) {
  return client.episodeResult.findMany({
    where: { evalRunId },
    select: { episodeId: true, trial: true, passed: true, actual: true, explanation: true },
    orderBy: [{ episodeId: "asc" }, { trial: "asc" }],
  });
}

/** Null when either run does not exist. */
export async function loadRunComparison(input: { a: string; b: string; client?: Db }): Promise<TLoadedComparison | null> {
  const client = input.client ?? defaultDb();
  const [a, b] = await Promise.all([loadEvalRun({ id: input.a, client }), loadEvalRun({ id: input.b, client })]);
  if (!a || !b) return null;
  const [aRows, bRows] = await Promise.all([rowsOf(client, a.id), rowsOf(client, b.id)]);
  return { a, b, comparison: compareRuns(aRows, bRows) };
}
