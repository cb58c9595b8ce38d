// npm run audit:verify: checks the audit chain against the signed checkpoints and the ledger against
// the audit; exits 1 and names every problem found. Events after the latest checkpoint are reported
// as an unverified tail. With --file, checks an exported audit trail offline instead (no database):
// against the public key given, obtained separately (GET /api/audit/checkpoints publishes it).
//
//   npm run audit:verify
//   npm run audit:verify -- --public-key audit-signing-key.pub.pem --checkpoints audit-checkpoints.jsonl
//   npm run audit:verify -- --file countersign-audit.jsonl --pubkey audit-signing-key.pub.pem
import { createPublicKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { db } from "../lib/db";
import { AppError } from "../lib/contracts/app-error";
import { runScript } from "./run-script";
import { auditVerifyReport } from "../lib/audit/audit-verify-report";
import { describeExportProblem, verifyAuditExport } from "../lib/audit/verify-audit-export";

const { values } = parseArgs({
  options: { "public-key": { type: "string" }, checkpoints: { type: "string" }, file: { type: "string" }, pubkey: { type: "string" } },
});

function readOrRefuse(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new AppError("invalid", `Cannot read the ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
}

async function verifyExportFile(file: string, pubkey: string | undefined): Promise<number> {
  if (!pubkey)
    throw new AppError(
      "invalid",
      "Give the public key to check the export against: --pubkey FILE (a PEM obtained separately, e.g. from GET /api/audit/checkpoints).",
    );
  let key;
  try {
    key = createPublicKey(readOrRefuse(pubkey, "public key"));
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("invalid", `${pubkey} is not a public key in PEM form.`);
  }
  const report = verifyAuditExport(readOrRefuse(file, "export"), key);
  const range = `${report.from ?? "the beginning"} to ${report.to ?? "the export"}`;
  if (report.ok) {
    console.log(`Audit export verifies: ${report.events} events (${range}), sealed at ${report.exportedAt} with key ${report.keyId}.`);
    return 0;
  }
  console.log(`Audit export BROKEN: ${report.problems.length} problem(s) in ${file}.`);
  for (const p of report.problems.slice(0, 50)) console.log(`- ${describeExportProblem(p)}`);
  if (report.problems.length > 50) console.log(`… and ${report.problems.length - 50} more.`);
  return 1;
}

runScript(() =>
  values.file
    ? verifyExportFile(values.file, values.pubkey)
    : auditVerifyReport(db(), console.log, { publicKeyFile: values["public-key"], file: values.checkpoints }),
);
