// npm run audit:verify: checks the audit chain against the signed checkpoints and the ledger against
// the audit; exits 1 and names every problem found. Events after the latest checkpoint are reported
// as an unverified tail.
//
//   npm run audit:verify
//   npm run audit:verify -- --public-key audit-signing-key.pub.pem --checkpoints audit-checkpoints.jsonl
import { parseArgs } from "node:util";
import { db } from "../lib/db";
import { runScript } from "./run-script";
import { auditVerifyReport } from "../lib/audit/audit-verify-report";

const { values } = parseArgs({ options: { "public-key": { type: "string" }, checkpoints: { type: "string" } } });
runScript(() => auditVerifyReport(db(), console.log, { publicKeyFile: values["public-key"], file: values.checkpoints }));
