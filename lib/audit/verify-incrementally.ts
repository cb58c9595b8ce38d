// What /audit shows on every view: the chain verified from the last verified checkpoint on (so a
// view costs what happened since, not the whole history), and when it was last verified in full.
import type { KeyObject } from "node:crypto";
import { db as defaultDb, type Db } from "../db";
import { verifyingKey } from "./checkpoint";
import { recordVerification } from "./store/audit-store";
import { verifyAuditChain, type TAuditReport } from "./verify-audit-chain";

export interface TIncrementalReport {
  report: TAuditReport;
  /** The checkpoint this view verified from (0: from the start). */
  fromPosition: number;
  lastFull: { at: Date; ok: boolean; events: bigint } | null;
}

export async function verifyIncrementally(
  client: Db = defaultDb(),
  options: { publicKey?: KeyObject | null } = {},
): Promise<TIncrementalReport> {
  const [lastOk, lastFull] = await Promise.all([
    client.auditVerification.findFirst({ where: { ok: true }, orderBy: { id: "desc" }, select: { position: true } }),
    client.auditVerification.findFirst({ where: { full: true }, orderBy: { id: "desc" }, select: { at: true, ok: true, events: true } }),
  ]);
  const fromPosition = lastOk?.position ?? 0;
  const report = await verifyAuditChain(client, {
    publicKey: options.publicKey === undefined ? verifyingKey() : options.publicKey,
    fromPosition: fromPosition || undefined,
  });
  if (!report.ok || report.position > fromPosition) {
    await recordVerification(client, { full: fromPosition === 0, ok: report.ok, position: report.position, events: report.events });
  }
  return { report, fromPosition, lastFull };
}
