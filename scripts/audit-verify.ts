// npm run audit:verify: recomputes the audit hash chain; exits 1 and names the first broken event.
import { closeDb, db } from "../lib/db";
import { describeEnvError } from "../lib/env";
import { auditVerifyReport } from "../lib/audit/audit-verify-report";

auditVerifyReport(db(), console.log)
  .then(async (code) => {
    await closeDb();
    process.exit(code);
  })
  .catch(async (error) => {
    console.error(describeEnvError(error) ?? error);
    await closeDb().catch(() => {});
    process.exit(2);
  });
