// The text `npm run audit:verify` prints, and its exit code.
import type { Db } from "../db";
import { verifyAuditChain } from "./verify-audit-chain";

export async function auditVerifyReport(client: Db, log: (line: string) => void): Promise<number> {
  const report = await verifyAuditChain(client, { onProgress: (n) => n && n % 50_000 === 0 && log(`… ${n} events checked`) });
  if (report.ok) {
    log(`Audit chain verifies: ${report.events} events, last hash ${report.lastHash.slice(0, 16)}…`);
    return 0;
  }
  const { seq, action, at, problem } = report.brokenAt;
  const why = problem === "hash_mismatch" ? "its contents no longer match its hash" : "it does not link to the event before it";
  log(`Audit chain BROKEN at event #${seq} (${action}, ${at.toISOString()}): ${why}.`);
  log(`${report.events} events before it verify; event #${seq} and everything after it cannot be trusted.`);
  return 1;
}
