// The text `npm run audit:verify` prints, and its exit code: 0 when everything verifies, 1 when
// anything does not (each problem named), with the unsigned tail always reported as unverified.
import type { Db } from "../db";
import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { checkpointFile, verifyingKey } from "./checkpoint";
import { describeRollback } from "./rollback";
import { recordVerification } from "./store/audit-store";
import { verifyAuditChain, type TAuditProblem, type TAuditReport } from "./verify-audit-chain";

export function describeProblem(p: TAuditProblem): string {
  switch (p.kind) {
    case "event_altered":
      return `event #${p.seq} (${p.action}, ${p.at.toISOString()}) was altered: its contents no longer match its hash`;
    case "link_broken":
      return `event #${p.seq} (${p.action}) does not link to the event before it in ${p.stream || "the legacy chain"}: an event was removed or inserted`;
    case "events_missing":
      return p.tail
        ? `tail truncated: checkpoint ${p.position} signed ${p.signed} events in its window, ${p.found} remain, and nothing follows them`
        : `events deleted: checkpoint ${p.position} signed ${p.signed} events in its window, ${p.found} remain`;
    case "chain_rehashed":
      return `the chain was re-hashed: the events covered by checkpoint ${p.position} are not the ones it signed`;
    case "checkpoint_removed":
      return p.from === "database"
        ? `checkpoint ${p.position} was removed from the database (the checkpoint file holds it)`
        : `checkpoint ${p.position} is missing from the checkpoint file`;
    case "rolled_back":
      return describeRollback(p, p.file);
    case "checkpoint_invalid":
      return `checkpoint ${p.position} is not valid: ${p.why}`;
    case "ledger_total_changed":
      return `the ledger changed under checkpoint ${p.position}: signed ${p.signed.rows} rows totalling ${p.signed.cents} cents, found ${p.found.rows} rows totalling ${p.found.cents}`;
    case "ledger_without_event":
      return `ledger row ${p.ledgerEntryId} (${p.amountCents} cents, ${p.idempotencyKey}) has no refund.executed event`;
    case "ledger_amount_differs":
      return `ledger row ${p.ledgerEntryId} says ${p.amountCents} cents, its refund.executed event ${p.auditedCents ?? "no amount"}`;
    case "event_without_ledger":
      return `refund.executed event #${p.seq} (${p.idempotencyKey}) has no ledger row`;
    case "ledger_without_approval":
      return `ledger row ${p.ledgerEntryId} (${p.idempotencyKey}) has no recorded approval`;
    case "decision_unverified":
      return `decision ${p.decisionId} (approval ${p.approvalRequestId}, seat ${p.seat}) does not verify: ${p.why}`;
    case "decision_without_event":
      return `decision ${p.decisionId} (approval ${p.approvalRequestId}, seat ${p.seat}, ${p.decision}) has no audit event carrying its signature`;
    case "ledger_approval_unverified":
      return `ledger row ${p.ledgerEntryId} (${p.idempotencyKey}) was written on an approval that does not verify (${p.approvalRequestId ?? "none"}): ${p.why}`;
  }
}

export function summarise(report: TAuditReport): string[] {
  const lines: string[] = [];
  if (report.checkpoints === 0) lines.push("No signed checkpoint yet: nothing is covered by a signature (run `npm run audit:checkpoint`).");
  if (report.noKey) lines.push("No public key to check the checkpoints' signatures with (give --public-key FILE).");
  if (report.unexported > 0)
    lines.push(`${report.unexported} checkpoint(s) in the database are not in the checkpoint file yet (the next checkpoint writes them).`);
  for (const r of report.acceptedRollbacks) lines.push(`Rolled back at a restore (accepted): ${describeRollback(r, r.file)}.`);
  lines.push(`Unverified tail: ${report.unverifiedTail} events after the latest checkpoint (consistent, not yet signed).`);
  return lines;
}

export async function auditVerifyReport(
  client: Db,
  log: (line: string) => void,
  options: { publicKeyFile?: string; file?: string } = {},
): Promise<number> {
  const file = options.file ?? checkpointFile();
  const report = await verifyAuditChain(client, {
    publicKey: verifyingKey(options.publicKeyFile),
    file,
    setAside: setAsideCheckpointFiles(file),
    onProgress: (n) => n && n % 100_000 === 0 && log(`… ${n} events checked`),
  });
  await recordVerification(client, { full: true, ok: report.ok, position: report.position, events: report.events });
  if (report.ok) {
    log(
      `Audit chain verifies: ${report.covered} events covered by ${report.checkpoints} signed checkpoint(s); ${report.decisions} approval decision(s) signed and audited; the ledger matches the audit.`,
    );
    for (const line of summarise(report)) log(line);
    return 0;
  }
  log(`Audit chain BROKEN: ${report.problems.length} problem(s).`);
  for (const p of report.problems.slice(0, 50)) log(`- ${describeProblem(p)}`);
  if (report.problems.length > 50) log(`… and ${report.problems.length - 50} more.`);
  for (const line of summarise(report)) log(line);
  return 1;
}

/** The suffix db:restore gives a checkpoint file it set aside on an accepted rollback. */
export const SET_ASIDE_MARK = ".rolled-back-";

/** The checkpoint files set aside beside `file` by restores whose rollback was accepted. */
export function setAsideCheckpointFiles(file: string): string[] {
  const dir = dirname(file);
  if (!existsSync(/*turbopackIgnore: true*/ dir)) return [];
  const prefix = basename(file) + SET_ASIDE_MARK;
  return readdirSync(/*turbopackIgnore: true*/ dir)
    .filter((name) => name.startsWith(prefix))
    .sort()
    .map((name) => join(dir, name));
}
