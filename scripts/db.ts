// npm run db:deploy | db:migrate:create -- NAME | db:status | db:reset -- --yes
// Works offline against the embedded database (default) or DATABASE_URL; on PostgreSQL the schema is
// changed as the owner (MIGRATION_DATABASE_URL when set), who grants DATABASE_URL's role its share.
import { rm } from "node:fs/promises";
import { configuredTarget, openDb } from "../lib/db";
import { createMigration, deployMigrations, migrationStatus } from "../lib/db/migrate";
import { migrationUrl } from "../lib/db/privileges";
import { describeEnvError, env } from "../lib/env";
import { seedDemoWithHistory } from "../prisma/seed/demo";

function where(): string {
  const e = env();
  return e.DATABASE_URL
    ? `PostgreSQL (${new URL(e.DATABASE_URL).pathname.slice(1) || "default database"})`
    : `the embedded database in ${e.pgliteDir}`;
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case "deploy": {
      console.log(`Applying migrations to ${where()}…`);
      const applied = await deployMigrations(configuredTarget(), { warn: (line) => console.warn(line) });
      console.log(applied.length ? `Applied ${applied.length}: ${applied.join(", ")}` : "Already up to date.");
      return 0;
    }
    case "create": {
      const name = rest.find((a) => !a.startsWith("-"));
      if (!name) {
        console.error("Usage: npm run db:migrate:create -- <name>");
        return 2;
      }
      const dir = await createMigration(name);
      console.log(
        dir ? `Created ${dir}/migration.sql: review it, then npm run db:deploy` : "schema.prisma has no changes: nothing to create.",
      );
      return 0;
    }
    case "status": {
      const s = await migrationStatus(configuredTarget());
      console.log(`Database: ${where()}`);
      console.log(`Applied: ${s.applied.length}${s.applied.length ? ` (latest ${s.applied.at(-1)})` : ""}`);
      for (const [label, names] of [
        ["Pending", s.pending],
        ["Failed", s.failed],
        ["Edited after applying", s.edited],
        ["Unknown to this checkout", s.unknown],
      ] as const) {
        if (names.length) console.log(`${label}: ${names.join(", ")}`);
      }
      const current = !s.pending.length && !s.failed.length && !s.edited.length;
      console.log(current ? "Migrations are current." : "Migrations are NOT current: run npm run db:deploy.");
      return current ? 0 : 1;
    }
    case "reset": {
      if (!rest.includes("--yes")) {
        console.error(`This deletes every row in ${where()}. Run again with --yes to confirm: npm run db:reset -- --yes`);
        return 2;
      }
      const target = configuredTarget();
      if (target.kind === "pglite") {
        await rm(target.dir!, { recursive: true, force: true });
      } else {
        // As the owner: the app's role may not drop what it does not own. The job queue's schema
        // goes too, or its migration would find it already there.
        const handle = openDb({ kind: "postgres", url: migrationUrl(target.url, env().MIGRATION_DATABASE_URL) });
        try {
          await handle.client.$executeRawUnsafe("DROP SCHEMA IF EXISTS pgboss CASCADE");
          await handle.client.$executeRawUnsafe("DROP SCHEMA public CASCADE");
          await handle.client.$executeRawUnsafe("CREATE SCHEMA public");
        } finally {
          await handle.close();
        }
      }
      console.log(`Emptied ${where()}.`);
      const applied = await deployMigrations(target, { warn: (line) => console.warn(line) });
      console.log(`Applied ${applied.length} migration(s).`);
      if (env().demoSeed) {
        const handle = openDb(target);
        try {
          const counts = await seedDemoWithHistory(handle.client);
          console.log(`Seeded demo data: ${counts}`);
        } finally {
          await handle.close();
        }
      }
      return 0;
    }
    default:
      console.error("Usage: tsx scripts/db.ts deploy | create <name> | status | reset --yes");
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(describeEnvError(error) ?? error);
    process.exit(1);
  },
);
