// A version's evaluation as its page shows it: the latest evaluation of its current content (waiting,
// running with its progress, failed with why, or finished with what it found and who acknowledged
// it), whether an earlier content of the version was evaluated (which no longer counts), the corpus in
// effect now (an evaluation graded against an earlier one is worth running again), and what the
// publish gate would say. Read-only; one statement for the evaluations, one for the corpus hash.
import type { TEvaluationResults, TGradingProgress } from "../contracts/policy-evaluation";
import { db as defaultDb, type Db } from "../db";
import { corpusHash } from "../policy/corpus-hash";

export interface TEvaluationView {
  id: string;
  status: "queued" | "running" | "done" | "failed";
  startedBy: string;
  createdAt: Date;
  finishedAt: Date | null;
  progress: TGradingProgress | null;
  results: TEvaluationResults | null;
  regressions: number | null;
  error: string | null;
  corpusHashBefore: string | null;
  corpusHashAfter: string | null;
  acknowledged: { by: string; at: Date; note: string | null } | null;
}

export interface TVersionEvaluation {
  /** The latest evaluation of the version's current content, if any. */
  latest: TEvaluationView | null;
  /** An evaluation of an earlier content of this version finished: it does not count for this one. */
  earlierContentEvaluated: boolean;
  /** The corpus in effect now. */
  corpusHashNow: string;
  /** What publishing would be told now, as far as the evaluation goes (null: nothing against it). */
  gate: "evaluation_required" | "regression_unacknowledged" | null;
}

/** The publish gate's reading of the latest evaluation (publish-gate.ts reads the latest finished one). */
function gateOf(latestDone: { regressions: number | null; acknowledgedById: string | null } | undefined): TVersionEvaluation["gate"] {
  if (!latestDone) return "evaluation_required";
  return latestDone.regressions && !latestDone.acknowledgedById ? "regression_unacknowledged" : null;
}

export async function loadVersionEvaluation(input: { documentId: string; contentHash: string; client?: Db }): Promise<TVersionEvaluation> {
  const client = input.client ?? defaultDb();
  const [rows, now] = await Promise.all([
    client.policyEvaluation.findMany({
      where: { documentId: input.documentId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 20,
      include: { startedBy: { select: { name: true } }, acknowledgedBy: { select: { name: true } } },
    }),
    corpusHash(client),
  ]);
  const ofContent = rows.filter((r) => r.contentHash === input.contentHash);
  const row = ofContent[0];
  const latestDone = ofContent.filter((r) => r.status === "done").sort((a, b) => +b.finishedAt! - +a.finishedAt!)[0];
  return {
    latest: row
      ? {
          id: row.id,
          status: row.status,
          startedBy: row.startedBy.name,
          createdAt: row.createdAt,
          finishedAt: row.finishedAt,
          progress: row.progress as TGradingProgress | null,
          results: row.results as TEvaluationResults | null,
          regressions: row.regressions,
          error: row.error,
          corpusHashBefore: row.corpusHashBefore,
          corpusHashAfter: row.corpusHashAfter,
          acknowledged: row.acknowledgedBy ? { by: row.acknowledgedBy.name, at: row.acknowledgedAt!, note: row.acknowledgementNote } : null,
        }
      : null,
    earlierContentEvaluated: rows.some((r) => r.contentHash !== input.contentHash && r.status === "done"),
    corpusHashNow: now,
    gate: gateOf(latestDone),
  };
}
