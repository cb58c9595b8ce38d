// npm run db:backup -- [--out DIR] [--with-keys]
// One consistent backup of the configured database into a new directory (backup-archive.ts): the
// embedded database – asked of the running server when it holds the data directory – or PostgreSQL
// through pg_dump; the audit checkpoint file and the audit public key beside it. Private keys and
// generated secrets only with --with-keys, said loudly. Restore it with npm run db:restore.
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { configuredTarget } from "../lib/db";
import { copyEmbeddedDatabase } from "../lib/db/embedded-backup";
import { dumpPostgres } from "../lib/db/postgres-backup";
import { migrationUrl } from "../lib/db/privileges";
import { checkpointFile, keyIdOf, readCheckpointFile, verifyingKey } from "../lib/audit/checkpoint";
import { checkpointsBySql } from "../lib/audit/rollback";
import { AppError } from "../lib/contracts/app-error";
import { env } from "../lib/env";
import {
  CHECKPOINTS,
  FORMAT,
  KEYS_DIR,
  PUBLIC_KEY,
  SECRET_FILES,
  SECRET_VARIABLES,
  sha256File,
  VERSION,
  type TManifest,
} from "./backup-archive";
import { runScript } from "./run-script";

const { values } = parseArgs({ options: { out: { type: "string" }, "with-keys": { type: "boolean", default: false } } });

const step = (line: string) => console.log(`▸ ${line}`);

function outputDir(): string {
  const dir = resolve(values.out ?? `countersign-backup-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new AppError("invalid", `${dir} is not empty: give a new directory with --out.`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** The database into the archive: its file's name, and (PostgreSQL) the checkpoints of its snapshot. */
async function backUpDatabase(out: string): Promise<Pick<TManifest, "database" | "databaseCheckpoints">> {
  const target = configuredTarget();
  if (target.kind === "pglite") {
    const tarball = await copyEmbeddedDatabase(target.dir!, { dataDir: target.dataDir, progress: step });
    writeFileSync(join(out, "database.tar.gz"), tarball, { mode: 0o600 });
    step(`Database: ${(tarball.length / 1e6).toFixed(1)} MB (database.tar.gz).`);
    return { database: { kind: "pglite", file: "database.tar.gz" } };
  }
  step("Dumping PostgreSQL with pg_dump (one snapshot)…");
  const file = join(out, "database.pgdump");
  const url = migrationUrl(target.url, env().MIGRATION_DATABASE_URL);
  const databaseCheckpoints = await dumpPostgres(url, file, checkpointsBySql);
  step(`Database: pg_dump custom format (database.pgdump), ${databaseCheckpoints.length} signed checkpoint(s) in it.`);
  return { database: { kind: "postgres", file: "database.pgdump" }, databaseCheckpoints };
}

/** The private keys and secrets in DATA_DIR, copied only when asked; said loudly either way. */
function backUpSecrets(out: string): string[] {
  const present = SECRET_FILES.filter((name) => existsSync(resolve(env().DATA_DIR, name)));
  const inVariables = SECRET_VARIABLES.filter((name) => env()[name]);
  if (inVariables.length)
    step(`Set in the environment, never written to a backup: ${inVariables.join(", ")}. Keep them in your secret store.`);
  if (!values["with-keys"]) {
    if (present.length)
      step(
        `Private keys and secrets NOT included: ${present.join(", ")} (from ${env().DATA_DIR}). Without them a restored copy signs with a new key and ends every session; add --with-keys to carry them.`,
      );
    return [];
  }
  mkdirSync(join(out, KEYS_DIR), { mode: 0o700 });
  for (const name of present) copyFileSync(resolve(env().DATA_DIR, name), join(out, KEYS_DIR, name));
  console.warn(
    `!!! WARNING: this backup holds private keys and secrets (${present.join(", ") || "none found"}) in ${join(out, KEYS_DIR)}.\n` +
      `!!! Whoever reads it can sign audit checkpoints and sessions as this instance. Encrypt it and keep it apart from ordinary backups.`,
  );
  return present.map((name) => `${KEYS_DIR}/${name}`);
}

async function main(): Promise<number> {
  const out = outputDir();
  step(`Backing up to ${out}`);
  // The checkpoint file first: every checkpoint in it is already in the database (the file is
  // written after the database), so the copy never runs ahead of the database copied after it.
  const cpFile = checkpointFile();
  const held = existsSync(cpFile) ? readCheckpointFile(cpFile).length : 0;
  if (existsSync(cpFile)) copyFileSync(cpFile, join(out, CHECKPOINTS));
  step(existsSync(cpFile) ? `Checkpoint file: ${held} checkpoint(s) from ${cpFile}.` : `No checkpoint file yet at ${cpFile}.`);
  const db = await backUpDatabase(out);
  const key = verifyingKey();
  if (key) writeFileSync(join(out, PUBLIC_KEY), key.export({ type: "spki", format: "pem" }).toString(), { mode: 0o644 });
  step(key ? `Audit public key ${keyIdOf(key)} (${PUBLIC_KEY}).` : "No audit signing key yet: no public key to carry.");
  const secrets = backUpSecrets(out);
  const names = [db.database.file, ...(existsSync(cpFile) ? [CHECKPOINTS] : []), ...(key ? [PUBLIC_KEY] : []), ...secrets];
  const manifest: TManifest = {
    format: FORMAT,
    version: VERSION,
    createdAt: new Date().toISOString(),
    ...db,
    checkpoints: existsSync(cpFile) ? { file: CHECKPOINTS, count: held } : null,
    publicKey: key ? { file: PUBLIC_KEY, keyId: keyIdOf(key) } : null,
    secrets,
    files: Object.fromEntries(names.map((name) => [name, sha256File(join(out, name))])),
  };
  writeFileSync(join(out, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n", { mode: 0o600 });
  console.log(
    `Backup complete: ${out}${secrets.length ? " (WITH private keys and secrets)" : ""}. Restore it with npm run db:restore -- ${out}`,
  );
  return 0;
}

runScript(main);
