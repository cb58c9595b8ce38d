// The only code that writes SubjectExport: a request, its data once the job has gathered it, the one
// download (which empties it), and the discard an erasure makes. It decides nothing.
import type { DbTx } from "../../db";
import { toJson } from "../../db";

export function insertExportRow(tx: DbTx, row: { customerId: string; requestedById: string }) {
  return tx.subjectExport.create({ data: row, select: { id: true } });
}

/** The gathered data, on a request still pending; false when it is not (a retried job). */
export async function fillExportRow(tx: DbTx, id: string, data: unknown): Promise<boolean> {
  const { count } = await tx.subjectExport.updateMany({
    where: { id, status: "pending" },
    data: { status: "ready", data: toJson(data), readyAt: new Date() },
  });
  return count === 1;
}

/** Takes a ready export's data and empties it, in one statement: of two downloads at once, one gets it. */
export async function takeExportRow(tx: DbTx, id: string, byId: string): Promise<{ customerId: string; data: unknown } | null> {
  const rows = await tx.$queryRaw<{ customerId: string; data: unknown }[]>`
    UPDATE "SubjectExport" e SET "status" = 'downloaded', "data" = NULL, "downloadedAt" = now(), "downloadedById" = ${byId}::uuid
      FROM (SELECT id, "data" FROM "SubjectExport" WHERE id = ${id}::uuid AND "status" = 'ready' FOR UPDATE) old
     WHERE e.id = old.id
    RETURNING e."customerId", old."data"`;
  return rows[0] ?? null;
}

/** An erased customer's exports not yet downloaded are discarded with their data. */
export async function discardExportRows(tx: DbTx, customerId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE "SubjectExport" SET "data" = NULL, "status" = CASE WHEN "status" IN ('pending', 'ready') THEN 'discarded' ELSE "status" END
     WHERE "customerId" = ${customerId}`;
}
