// The team dataset: the episodes a lead promoted from people's judgements (review-episode-candidate.ts),
// in the order they were promoted. It sits beside the shipped dataset (eval/episodes.jsonl) rather than
// inside it: the shipped one stays pinned by contracts/agent_manifest.json in a reviewed commit, and
// this one is pinned by its own content – the hash of the text built here from the promoted episodes –
// so a release decision on it holds for drift exactly as on the shipped one, against that pin.
import { canonicalJson } from "../contracts/canonical";
import type { TAgentManifest } from "../contracts/manifest";
import { db as defaultDb, type Db } from "../db";
import type { TReleasePins } from "./decide-release";
import { datasetFromText } from "./load-dataset";
import type { TDataset } from "./episode";

/** What /evals offers and an evaluation request records for the team dataset (not a file path). */
export const TEAM_DATASET = "team";
export const TEAM_DATASET_VERSION = "team-episodes-v1";

/** The dataset's text: its header, then each promoted episode as canonical JSON, one a line. */
export function teamDatasetText(episodes: readonly unknown[]): string {
  return [JSON.stringify({ datasetVersion: TEAM_DATASET_VERSION }), ...episodes.map((e) => canonicalJson(e))].join("\n") + "\n";
}

/** The promoted episodes as a dataset (parsed, so a row that no longer fits the format says so), and its text. */
export async function loadTeamDataset(client: Db = defaultDb()): Promise<{ text: string; dataset: TDataset }> {
  const rows = await client.episodeCandidate.findMany({ where: { status: "promoted" }, orderBy: [{ reviewedAt: "asc" }, { id: "asc" }], select: { episode: true } });
  const text = teamDatasetText(rows.map((r) => r.episode));
  return { text, dataset: datasetFromText(text) };
}

/** The pins a team evaluation is held to: the manifest's identities, this dataset's version, hash and size. */
export function teamPins(manifest: TAgentManifest, dataset: TDataset): TReleasePins {
  return { agentVersion: manifest.agentVersion, graderVersion: manifest.graderVersion, datasetVersion: TEAM_DATASET_VERSION, datasetHash: dataset.hash, datasetEpisodes: dataset.episodes.length };
}
