// The evaluations store: the only code that writes PolicyEvaluation. It decides nothing – who may
// evaluate or acknowledge, and what a grading found, are decided by lib/documents/evaluate-*.ts and
// publish-gate.ts – and each move is a compare-and-set on the row's state, so a retried job or a
// second click finds the move made and changes nothing. The database keeps the rest: one evaluation
// of a content queued or running at a time (a partial unique index), a finished one whole, and an
// acknowledgement only of a finished one with regressions (check constraints, 20261127120000).
import { Prisma, toJson, type Db, type DbTx } from "../../db";
import type { TEvaluationResults, TGradingProgress } from "../../contracts/policy-evaluation";

/** A new evaluation, queued. */
export async function insertEvaluation(
  tx: DbTx,
  e: { id: string; documentId: string; contentHash: string; startedById: string },
): Promise<void> {
  await tx.policyEvaluation.create({ data: { ...e, status: "queued" } });
}

/** The evaluation taken by a worker (again, after a crash): null when it is finished or gone. */
export async function claimEvaluation(client: Db, id: string): Promise<{ documentId: string; contentHash: string } | null> {
  const [row] = await client.$queryRaw<{ documentId: string; contentHash: string }[]>(Prisma.sql`
    UPDATE "PolicyEvaluation" SET "status" = 'running', "runningAt" = now() AT TIME ZONE 'UTC', "progress" = NULL
    WHERE "id" = ${id}::uuid AND "status" IN ('queued', 'running')
    RETURNING "documentId"::text AS "documentId", "contentHash"`);
  return row ?? null;
}

/** How far the grading has gone, while it runs. */
export async function recordEvaluationProgress(client: Db, id: string, progress: TGradingProgress): Promise<void> {
  await client.policyEvaluation.updateMany({ where: { id, status: "running" }, data: { progress: toJson(progress) } });
}

export type TEvaluationEnd =
  | { status: "done"; results: TEvaluationResults; regressions: number; corpusHashBefore: string; corpusHashAfter: string }
  | { status: "failed"; error: string; corpusHashBefore?: string; corpusHashAfter?: string };

/** A running evaluation finished; false when it was not running (finished by another attempt). */
export async function finishEvaluation(tx: DbTx, id: string, end: TEvaluationEnd): Promise<boolean> {
  const data =
    end.status === "done"
      ? { ...end, results: toJson(end.results) }
      : { status: end.status, error: end.error, corpusHashBefore: end.corpusHashBefore, corpusHashAfter: end.corpusHashAfter };
  const { count } = await tx.policyEvaluation.updateMany({
    where: { id, status: "running" },
    data: { ...data, progress: Prisma.DbNull, finishedAt: new Date() },
  });
  return count === 1;
}

/** A finished evaluation's regressions acknowledged by a person; false when they already were. */
export async function acknowledgeEvaluation(tx: DbTx, a: { id: string; byId: string; note: string | null; at: Date }): Promise<boolean> {
  const { count } = await tx.policyEvaluation.updateMany({
    where: { id: a.id, status: "done", acknowledgedById: null },
    data: { acknowledgedById: a.byId, acknowledgedAt: a.at, acknowledgementNote: a.note },
  });
  return count === 1;
}
