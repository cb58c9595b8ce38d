// The release decision, exactly: eligible_for_shadow only when the receipt's identity matches what
// is pinned, every expected episode appears exactly once per trial, nothing extra is padded in, and
// every row passed. Otherwise hold, with the first reason found, in this order:
//   agent_version:… dataset_version:… dataset_hash:… grader_version:… missing:… duplicate:… unexpected:… failed:…
import type { TReceipt } from "./receipt";

/** Why a release holds: the part of its reason before the colon, checked in this order. */
export const HOLD_REASONS = ["agent_version", "dataset_version", "dataset_hash", "grader_version", "missing", "duplicate", "unexpected", "failed"] as const;
export type THoldReason = (typeof HOLD_REASONS)[number];

export type TReleaseDecision = { outcome: "eligible_for_shadow"; reason: null } | { outcome: "hold"; reason: string };

export interface TPinned {
  agentVersion: string;
  datasetVersion: string;
  /** The content hash of the dataset file the receipt claims to have graded. */
  datasetHash: string;
  graderVersion: string;
  /** The episode ids of that dataset. */
  episodeIds: readonly string[];
}

const hold = (why: THoldReason, detail: string): TReleaseDecision => ({ outcome: "hold", reason: `${why}:${detail}` });
const list = (ids: Iterable<string>) => [...new Set(ids)].sort().join(",");

export function decideRelease(receipt: TReceipt, pinned: TPinned): TReleaseDecision {
  if (receipt.agentVersion !== pinned.agentVersion) return hold("agent_version", receipt.agentVersion);
  if (receipt.datasetVersion !== pinned.datasetVersion) return hold("dataset_version", receipt.datasetVersion);
  if (receipt.datasetHash !== pinned.datasetHash) return hold("dataset_hash", receipt.datasetHash);
  if (receipt.graderVersion !== pinned.graderVersion) return hold("grader_version", receipt.graderVersion);

  const expected = new Set(pinned.episodeIds);
  const counts = new Map<string, number>();
  for (const row of receipt.rows) {
    const key = `${row.episodeId}#${row.trial}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const missing: string[] = [];
  for (const id of expected) for (let t = 1; t <= receipt.trials; t++) if (!counts.has(`${id}#${t}`)) missing.push(id);
  if (missing.length) return hold("missing", list(missing));
  const duplicate = [...counts].filter(([, n]) => n > 1).map(([k]) => k.split("#")[0]!);
  if (duplicate.length) return hold("duplicate", list(duplicate));
  const unexpected = receipt.rows.filter((r) => !expected.has(r.episodeId) || r.trial < 1 || r.trial > receipt.trials).map((r) => r.episodeId);
  if (unexpected.length) return hold("unexpected", list(unexpected));
  const failed = receipt.rows.filter((r) => !r.passed).map((r) => r.episodeId);
  if (failed.length) return hold("failed", list(failed));
  return { outcome: "eligible_for_shadow", reason: null };
}
