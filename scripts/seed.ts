// npm run db:seed: adds the demo data that is missing (idempotent). Migrate first (npm run db:deploy).
import { closeDb, db } from "../lib/db";
import { describeEnvError } from "../lib/env";
import { seedDemo } from "../prisma/seed/demo";

async function main() {
  if (process.argv.includes("--scale")) {
    console.error("--scale is not available yet.");
    return 2;
  }
  const summary = await seedDemo(db());
  console.log(`Demo data: created ${summary}.`);
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
