// The candidate episodes for the Annotations page, newest first, and the team dataset's size and pin.
import { db as defaultDb, type Db } from "../db";
import { loadTeamDataset } from "./team-dataset";

export interface TCandidateRow {
  id: string;
  episodeId: string;
  episode: unknown;
  status: string;
  runId: string;
  ticketId: string;
  verdict: string | null;
  reason: string | null;
  correctedReply: string | null;
  correctedAmountCents: number | null;
  createdAt: Date;
}

export async function listEpisodeCandidates(client: Db = defaultDb(), take = 50): Promise<{ rows: TCandidateRow[]; team: { hash: string; episodes: number } }> {
  const rows = await client.episodeCandidate.findMany({
    orderBy: { createdAt: "desc" },
    take,
    select: { id: true, episodeId: true, episode: true, status: true, createdAt: true, annotation: { select: { runId: true, ticketId: true, verdict: true, reason: true, correctedReply: true, correctedAmountCents: true } } },
  });
  const { dataset } = await loadTeamDataset(client);
  return {
    rows: rows.map(({ annotation, ...r }) => ({ ...r, ...annotation })),
    team: { hash: dataset.hash, episodes: dataset.episodes.length },
  };
}
