// npm run db:seed: adds the demo data that is missing (idempotent). Migrate first (npm run db:deploy).
// npm run db:seed -- --scale: also adds the scale set for the bench (prisma/seed/scale.ts):
// 100,000 tickets, 1,000,000 trace events and 1,000,000 audit events (prisma/seed/scale-audit.ts);
// idempotent, resumable after an interruption.
import { closeDb, db } from "../lib/db";
import { describeEnvError } from "../lib/env";
import { seedDemoWithHistory } from "../prisma/seed/demo";
import { SCALE_TICKETS, seedScale } from "../prisma/seed/scale";
import { seedScaleAudit } from "../prisma/seed/scale-audit";

async function main() {
  const summary = await seedDemoWithHistory(db());
  console.log(`Demo data: created ${summary}.`);
  if (process.argv.includes("--scale")) {
    console.log(`Scale data: ${SCALE_TICKETS.toLocaleString("en-US")} tickets with their runs and trace events…`);
    const started = Date.now();
    const scale = await seedScale(db(), { onProgress: (line) => console.log(line) });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (scale.tickets === 0) console.log(`Scale data already present: nothing added (${seconds} s).`);
    else
      console.log(
        `Scale data: added ${scale.tickets.toLocaleString("en-US")} tickets, ${scale.runs.toLocaleString("en-US")} runs, ` +
          `${scale.events.toLocaleString("en-US")} trace events, ${scale.proposals.toLocaleString("en-US")} proposals in ${seconds} s.`,
      );
    console.log("Scale data: the audit trail of those tickets…");
    const auditStarted = Date.now();
    const events = await seedScaleAudit(db(), { onProgress: (line) => console.log(line) });
    console.log(
      `Scale data: added ${events.toLocaleString("en-US")} audit events in ${((Date.now() - auditStarted) / 1000).toFixed(1)} s.`,
    );
  }
  return 0;
}

main()
  .then(async (code) => {
    await closeDb();
    process.exit(code);
  })
  .catch(async (error) => {
    console.error(describeEnvError(error) ?? error);
    await closeDb().catch(() => {});
    process.exit(1);
  });
