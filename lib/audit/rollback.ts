// A database behind its checkpoint file: the file holds signed checkpoints the database does not
// (a restore from a backup older than the latest checkpoints, or the newest history removed). Named
// as such by `npm run audit:verify`, and refused by `npm run db:restore` unless accepted, rather than
// left to surface as checkpoints "removed from the database" one by one.
import type { Db } from "../db";
import { checkpointFromRow } from "./checkpoint";

/** What a comparison needs of a checkpoint (the file's line, the database's row or a backup's manifest). */
export type TCheckpointMark = { position: number; hash: string; events: string; ledgerRows: number; signedAt: string };

export interface TRollback {
  /** The last checkpoint the database and the file agree on (0: none). */
  keptUpTo: number;
  /** The file's latest checkpoint. */
  fileUpTo: number;
  /** When the file's latest checkpoint was signed. */
  lastSignedAt: string;
  /** Events and ledger rows the file signed after `keptUpTo`: what the database no longer holds as signed. */
  lostEvents: string;
  lostLedgerRows: number;
  /** Checkpoints the database signed after it was rolled back (their positions repeat the file's). */
  signedSince: number;
}

export function markOf(c: TCheckpointMark): TCheckpointMark {
  return { position: c.position, hash: c.hash, events: c.events, ledgerRows: c.ledgerRows, signedAt: c.signedAt };
}

/**
 * The rollback, if the database (its checkpoints, in position order) is behind the file: they agree
 * up to some checkpoint K, the file goes on past K, and after K they share no checkpoint. A database
 * missing a checkpoint in the middle of ones the file also holds is no rollback (it is reported as a
 * removed checkpoint); nor is a database ahead of its file (a checkpoint not exported yet).
 */
export function findRollback(database: readonly TCheckpointMark[], file: readonly TCheckpointMark[]): TRollback | undefined {
  const inDb = new Map(database.map((c) => [c.position, c.hash]));
  let kept: TCheckpointMark | undefined;
  for (const c of file) {
    if (inDb.get(c.position) !== c.hash) break;
    kept = c;
  }
  const keptUpTo = kept?.position ?? (file[0] ? file[0].position - 1 : 0);
  const later = file.filter((c) => c.position > keptUpTo);
  const last = later.at(-1);
  if (!last || later.some((c) => inDb.get(c.position) === c.hash)) return undefined;
  return {
    keptUpTo,
    fileUpTo: last.position,
    lastSignedAt: last.signedAt,
    lostEvents: (BigInt(last.events) - BigInt(kept?.events ?? "0")).toString(),
    lostLedgerRows: last.ledgerRows - (kept?.ledgerRows ?? 0),
    signedSince: database.filter((c) => c.position > keptUpTo).length,
  };
}

export function describeRollback(r: TRollback, file: string): string {
  return (
    `the database is behind its checkpoint file (rolled back): it holds the signed checkpoints up to ${r.keptUpTo}, the checkpoint file ${file} up to ${r.fileUpTo} ` +
    `(signed ${r.lastSignedAt}), which signed ${r.lostEvents} audit event(s) and ${r.lostLedgerRows} ledger row(s) after checkpoint ${r.keptUpTo} ` +
    `(a restore from an older backup, or the newest checkpoints removed)` +
    (r.signedSince ? `; ${r.signedSince} checkpoint(s) were signed on the rolled-back database since` : "")
  );
}

/** The database's signed checkpoints, in position order. */
export async function databaseCheckpoints(client: Db): Promise<TCheckpointMark[]> {
  const rows = await client.auditCheckpoint.findMany({ orderBy: { position: "asc" } });
  return rows.map((r) => markOf(checkpointFromRow(r)));
}

/** The same, through a plain SQL reader (pg_dump's snapshot, lib/db/postgres-backup.ts). */
export async function checkpointsBySql(rows: (sql: string) => Promise<Record<string, string | null>[]>): Promise<TCheckpointMark[]> {
  const found = await rows(
    `SELECT "position"::text AS position, "hash", "events"::text AS events, "ledgerRows"::text AS "ledgerRows",
            to_char("signedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "signedAt"
     FROM "AuditCheckpoint" ORDER BY "position"`,
  );
  return found.map((r) => ({
    position: Number(r.position),
    hash: r.hash!,
    events: r.events!,
    ledgerRows: Number(r.ledgerRows),
    signedAt: r.signedAt!,
  }));
}
