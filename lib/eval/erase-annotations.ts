// Erasure of what the annotations kept of a customer's tickets: a corrected reply, and the episode
// candidates saved from them (an episode carries the ticket's words), which are deleted outright:
// an episode without its ticket's text tests nothing.
import type { DbTx } from "../db";

export async function eraseAnnotationRows(tx: DbTx, ticketIds: string[]): Promise<void> {
  await tx.$executeRaw`
    DELETE FROM "EpisodeCandidate" WHERE "annotationId" IN (SELECT id FROM "RunAnnotation" WHERE "ticketId" = ANY(${ticketIds}::uuid[]))`;
  await tx.$executeRaw`UPDATE "RunAnnotation" SET "correctedReply" = NULL WHERE "ticketId" = ANY(${ticketIds}::uuid[])`;
}
