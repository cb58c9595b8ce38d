// A lead's review of a candidate episode: promoted into the team dataset (which changes that dataset's
// pin, its content hash: team-dataset.ts), or discarded. A compare-and-set on the candidate's state,
// with its audit event, in one transaction: a candidate is reviewed once.
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";
import { loadTeamDataset } from "./team-dataset";

export async function reviewEpisodeCandidate(input: { candidateId: string; decision: "promote" | "discard"; actor: { id: string; role: Role }; client?: Db; now?: Date }): Promise<{ teamHash: string | null }> {
  const { candidateId, decision, actor } = input;
  if (!mayUse(actor.role, "evals")) throw new AppError("forbidden", "Only a lead or an admin promotes episodes into the team dataset.");
  const client = input.client ?? defaultDb();
  const status = decision === "promote" ? "promoted" : "discarded";
  await client.$transaction(async (tx) => {
    const moved = await tx.episodeCandidate.updateMany({ where: { id: candidateId, status: "candidate" }, data: { status, reviewedById: actor.id, reviewedAt: input.now ?? new Date() } });
    if (moved.count !== 1) {
      const exists = await tx.episodeCandidate.count({ where: { id: candidateId } });
      throw exists ? new AppError("annotation_state", "This episode was reviewed already.") : new AppError("not_found", "No such candidate episode.");
    }
    await recordAuditEvent(tx, { actorType: "user", actorId: actor.id, action: decision === "promote" ? "episode.promoted" : "episode.discarded", subjectType: "episode_candidate", subjectId: candidateId });
  });
  if (decision === "discard") return { teamHash: null };
  return { teamHash: (await loadTeamDataset(client)).dataset.hash };
}
