// npm run audit:verify: recomputes the audit hash chain; exits 1 and names the first broken event.
import { db } from "../lib/db";
import { runScript } from "./run-script";
import { auditVerifyReport } from "../lib/audit/audit-verify-report";

runScript(() => auditVerifyReport(db(), console.log));
