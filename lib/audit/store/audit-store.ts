// The audit store: the only code that writes AuditEvent, AuditStream, AuditCheckpoint and
// AuditVerification. Events are appended only by the chain's SQL function (countersign_append_audit,
// in the migrations: it links each event to its stream's head under the head's lock), and this file
// is its only caller – directly, or as the CTE a caller composes into its own statement so the event
// and the change it records commit together in one round trip.
import { Prisma, type Db, type DbTx } from "../../db";
import { isSqlTx, preparedSql, type TSqlTx } from "../../db/driver";

/** Appends the events of one argument (auditAppendArgument), in order. */
export const APPEND_AUDIT_SQL = preparedSql("SELECT countersign_append_audit($1::jsonb)::text");

/** The append as a CTE body, for a statement's own text: its argument is the parameter `param` ($1). */
export const appendAuditCte = (param: string) => `SELECT countersign_append_audit(${param}::jsonb)`;

/** The append as a CTE body, for a statement built with Prisma.sql. */
export const appendAuditSql = (argument: string) => Prisma.sql`SELECT countersign_append_audit(${argument}::jsonb)`;

/** Appends one argument's events through Prisma, or straight on the driver. */
export async function appendAudit(tx: DbTx | TSqlTx, argument: string): Promise<void> {
  if (isSqlTx(tx)) await tx.rows(APPEND_AUDIT_SQL, [argument]);
  else await tx.$executeRaw`SELECT countersign_append_audit(${argument}::jsonb)`;
}

/** A signed checkpoint, as its row. */
export async function insertCheckpoint(tx: DbTx, data: Prisma.AuditCheckpointCreateInput): Promise<void> {
  await tx.auditCheckpoint.create({ data });
}

/** A verification's result: how far the chain was found whole (`full` from its start). */
export async function recordVerification(
  client: Db | DbTx,
  v: { full: boolean; ok: boolean; position: number; events: number },
): Promise<void> {
  await client.auditVerification.create({ data: { full: v.full, ok: v.ok, position: v.position, events: BigInt(v.events) } });
}
