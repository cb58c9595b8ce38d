// The release decision, exactly: eligible_for_shadow only when the receipt's identity matches what
// the manifest pins, the dataset graded is the pinned one, every expected episode appears exactly once
// per trial, nothing extra is padded in, and every row passed. Otherwise hold, with the first reason
// found, in this order:
//   agent_version:… dataset_version:… dataset_drift:… grader_version:… missing:… duplicate:… unexpected:… failed:…
//
// The pins come from contracts/agent_manifest.json (releasePins), never from the run's own inputs:
// a dataset with an episode removed, added or edited hashes differently from the pin, so it holds as
// `dataset_drift` whatever its version label says. Changing the dataset on purpose means changing the
// pin in the same commit (`npm run eval:pin` prints it).
import type { TAgentManifest } from "../contracts/manifest";
import type { TReceipt } from "./receipt";
import type { THoldReason } from "../contracts/reason-codes";


export type TReleaseDecision = { outcome: "eligible_for_shadow"; reason: null } | { outcome: "hold"; reason: string };

/** What a release is held to, all from the manifest. */
export interface TReleasePins {
  agentVersion: string;
  datasetVersion: string;
  /** The content hash of the dataset file, over its exact bytes. */
  datasetHash: string;
  datasetEpisodes: number;
  graderVersion: string;
}

/** The dataset that was graded, as loaded: its hash computed from its bytes (load-dataset.ts). */
export interface TGradedDataset {
  hash: string;
  episodeIds: readonly string[];
}

export function releasePins(manifest: TAgentManifest): TReleasePins {
  return {
    agentVersion: manifest.agentVersion,
    datasetVersion: manifest.evalDatasetVersion,
    datasetHash: manifest.evalDatasetHash,
    datasetEpisodes: manifest.evalDatasetEpisodes,
    graderVersion: manifest.graderVersion,
  };
}

const hold = (why: THoldReason, detail: string): TReleaseDecision => ({ outcome: "hold", reason: `${why}:${detail}` });
const list = (ids: Iterable<string>) => [...new Set(ids)].sort().join(",");
const shortHash = (hash: string) => (hash.length > 19 ? `${hash.slice(0, 19)}…` : hash);

/** What differs between the dataset (and the receipt's claim about it) and the pin; null when nothing. */
function datasetDrift(receipt: TReceipt, pins: TReleasePins, dataset: TGradedDataset): string | null {
  if (dataset.episodeIds.length !== pins.datasetEpisodes) return `episodes ${dataset.episodeIds.length}, pinned ${pins.datasetEpisodes}`;
  if (dataset.hash !== pins.datasetHash) return `content ${shortHash(dataset.hash)}, pinned ${shortHash(pins.datasetHash)}`;
  if (receipt.datasetHash !== pins.datasetHash) return `receipt names ${shortHash(receipt.datasetHash)}, pinned ${shortHash(pins.datasetHash)}`;
  return null;
}

export function decideRelease(receipt: TReceipt, pins: TReleasePins, dataset: TGradedDataset): TReleaseDecision {
  if (receipt.agentVersion !== pins.agentVersion) return hold("agent_version", receipt.agentVersion);
  if (receipt.datasetVersion !== pins.datasetVersion) return hold("dataset_version", receipt.datasetVersion);
  const drift = datasetDrift(receipt, pins, dataset);
  if (drift) return hold("dataset_drift", drift);
  if (receipt.graderVersion !== pins.graderVersion) return hold("grader_version", receipt.graderVersion);

  const expected = new Set(dataset.episodeIds);
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
