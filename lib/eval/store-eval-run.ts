// Stores a receipt, its rows and the release decision, with an audit event, in one transaction.
import type { Db, DbTx } from "../db";
import { db as defaultDb, toJson } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import type { TReleaseDecision } from "./decide-release";
import type { TReceipt } from "./receipt";

type TStoreInput = { receipt: TReceipt; decision: TReleaseDecision; createdById?: string | null; costUsd?: number | null; receiptDigest?: string };

export async function storeEvalRun(input: TStoreInput & { client?: Db }) {
  return (input.client ?? defaultDb()).$transaction((tx) => writeEvalRun(tx, input));
}

/** The same writes, in the caller's transaction. */
export async function writeEvalRun(tx: DbTx, input: TStoreInput) {
  const { receipt, decision } = input;
  {
    const run = await tx.evalRun.create({
      data: {
        datasetVersion: receipt.datasetVersion,
        datasetHash: receipt.datasetHash,
        graderVersion: receipt.graderVersion,
        agentVersion: receipt.agentVersion,
        modelId: receipt.modelId,
        commit: receipt.commit,
        trials: receipt.trials,
        receipt: toJson({ ...receipt, rows: undefined, rowCount: receipt.rows.length }),
        passed: receipt.rows.filter((r) => r.passed).length,
        failed: receipt.rows.filter((r) => !r.passed).length,
        createdById: input.createdById ?? null,
        costUsd: input.costUsd ?? null,
        receiptDigest: input.receiptDigest ?? null,
        episodes: {
          create: receipt.rows.map((r) => ({ episodeId: r.episodeId, trial: r.trial, passed: r.passed, expected: toJson(r.expected), actual: toJson(r.actual ?? { notRun: true }), explanation: r.explanation })),
        },
      },
    });
    await recordAuditEvent(tx, {
      actorType: input.createdById ? "user" : "system",
      actorId: input.createdById ?? "eval",
      action: "release.decided",
      subjectType: "eval_run",
      subjectId: run.id,
      inputs: {
        agentVersion: receipt.agentVersion,
        datasetVersion: receipt.datasetVersion,
        datasetHash: receipt.datasetHash,
        graderVersion: receipt.graderVersion,
        corpusHash: receipt.corpusHash,
        commit: receipt.commit,
      },
      policyDecision: decision,
    });
    await tx.releaseDecision.create({ data: { evalRunId: run.id, outcome: decision.outcome, reason: decision.reason, decidedById: input.createdById ?? null } });
    return run;
  }
}
