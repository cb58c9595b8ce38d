// npm run db:seed: adds the demo data that is missing (idempotent). Migrate first (npm run db:deploy).
// npm run db:seed -- --scale: also adds the scale set for the bench (prisma/seed/scale.ts):
// 100,000 tickets and 1,000,000 trace events; idempotent, resumable after an interruption.
import { closeDb, db } from "../lib/db";
import { describeEnvError } from "../lib/env";
import { seedDemo } from "../prisma/seed/demo";
import { SCALE_TICKETS, seedScale } from "../prisma/seed/scale";

async function main() {
  const summary = await seedDemo(db());
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
