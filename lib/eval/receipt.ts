// A receipt pins what was graded and by what: agent, dataset (version and content hash), grader,
// model, commit, the policy corpus the episodes ran on (its corpus hash, lib/policy/corpus-hash.ts),
// and one row per episode and trial. The release decision reads only the receipt.
import { z } from "zod";
import type { TEpisodeRow } from "./grade-episodes";

export const ZReceiptRow = z.object({
  episodeId: z.string(),
  trial: z.number().int().positive(),
  passed: z.boolean(),
  expected: z.unknown(),
  actual: z.unknown(),
  explanation: z.string().nullable(),
});

export const ZReceipt = z.object({
  receiptVersion: z.literal(1),
  agentVersion: z.string(),
  datasetVersion: z.string(),
  datasetHash: z.string(),
  graderVersion: z.string(),
  /** The corpus hash of the grading database the episodes ran on: which policy text was evidence. */
  corpusHash: z.string(),
  modelId: z.string(),
  commit: z.string(),
  trials: z.number().int().positive(),
  createdAt: z.string(),
  rows: z.array(ZReceiptRow),
});
export type TReceipt = z.infer<typeof ZReceipt>;

export function buildReceipt(input: Omit<TReceipt, "receiptVersion" | "createdAt" | "rows"> & { rows: TEpisodeRow[]; createdAt?: Date }): TReceipt {
  // A row's cost is the run's, not the grading's: it is summed beside the receipt (evaluationCost), not kept in it.
  const rows = input.rows.map(({ costUsd: _, ...row }) => row);
  return { receiptVersion: 1, ...input, createdAt: (input.createdAt ?? new Date()).toISOString(), rows };
}

/** pass^k per episode: passed in every one of its trials. */
export function passAllTrials(receipt: TReceipt): Map<string, { passed: number; trials: number; passAll: boolean }> {
  const out = new Map<string, { passed: number; trials: number; passAll: boolean }>();
  for (const row of receipt.rows) {
    const e = out.get(row.episodeId) ?? { passed: 0, trials: 0, passAll: true };
    e.trials++;
    if (row.passed) e.passed++;
    else e.passAll = false;
    out.set(row.episodeId, e);
  }
  return out;
}

/** What the graded episodes' runs cost together, in dollars; null when one's model has no configured price. */
export function evaluationCost(rows: readonly Pick<TEpisodeRow, "costUsd">[]): number | null {
  let total = 0;
  for (const row of rows) {
    if (row.costUsd === null) return null;
    total += row.costUsd ?? 0;
  }
  return Math.round(total * 1_000_000) / 1_000_000;
}
