// npm run db:restore -- BACKUP_DIR [--force] [--accept-rollback] [--checkpoints FILE]
// Restores a backup made by npm run db:backup into the configured database: the embedded one in
// DATA_DIR (the server stopped) or DATABASE_URL's through pg_restore. A non-empty target is refused
// without --force. A backup older than the checkpoints already signed – in the checkpoint file at
// the target, or in a newer copy given with --checkpoints – is a rollback: refused without
// --accept-rollback; accepted, the newer checkpoint file is set aside (kept, never deleted) and
// audit:verify names the rollback from then on.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { configuredTarget, openDataDir, openDb } from "../lib/db";
import { loadEmbeddedDatabase, replaceDirectory } from "../lib/db/embedded-backup";
import { countAppTables, restorePostgres } from "../lib/db/postgres-backup";
import { grantAppRole, migrationUrl } from "../lib/db/privileges";
import { checkpointFile, readCheckpointFile } from "../lib/audit/checkpoint";
import { SET_ASIDE_MARK } from "../lib/audit/audit-verify-report";
import { databaseCheckpoints, describeRollback, findRollback, markOf, type TCheckpointMark } from "../lib/audit/rollback";
import { AppError } from "../lib/contracts/app-error";
import { env } from "../lib/env";
import { KEYS_DIR, PUBLIC_KEY, readArchive, type TManifest } from "./backup-archive";
import { runScript } from "./run-script";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    force: { type: "boolean", default: false },
    "accept-rollback": { type: "boolean", default: false },
    checkpoints: { type: "string" },
  },
});

const step = (line: string) => console.log(`▸ ${line}`);
const refuse = (message: string): never => {
  throw new AppError("invalid", message);
};

/** Entries of a directory, without lock files, empty folders and the leftovers of an interrupted restore. */
function contents(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => {
    const path = join(dir, name);
    return !name.endsWith(".lock") && !name.includes(".restoring-") && !(statSync(path).isDirectory() && readdirSync(path).length === 0);
  });
}

/** The checkpoint files to hold the backup against: the target's, and a newer copy given. */
function checkRollback(restored: TCheckpointMark[]): { rolledBackFile?: string } {
  const files = [checkpointFile(), ...(values.checkpoints ? [resolve(values.checkpoints)] : [])].filter((f) => existsSync(f));
  if (values.checkpoints && !existsSync(resolve(values.checkpoints))) refuse(`There is no checkpoint file at ${values.checkpoints}.`);
  let rolledBackFile: string | undefined;
  for (const file of files) {
    const held = readCheckpointFile(file).map(markOf);
    const rollback = findRollback(restored, held);
    if (rollback) {
      if (!values["accept-rollback"])
        refuse(
          `Refused: restoring this backup is a ROLLBACK – ${describeRollback(rollback, file)}. Restore a newer backup, or accept the loss with --accept-rollback (the newer checkpoint file is then set aside and audit:verify names the rollback).`,
        );
      step(`Rollback ACCEPTED: ${describeRollback(rollback, file)}.`);
      if (file === checkpointFile()) rolledBackFile = file;
      continue;
    }
    const differs = held.find((c) => restored.some((r) => r.position === c.position && r.hash !== c.hash));
    if (differs)
      refuse(
        `${file} holds another audit history than this backup (checkpoint ${differs.position} differs): it is not this database's. Move it aside, or point AUDIT_CHECKPOINT_FILE elsewhere.`,
      );
  }
  return { rolledBackFile };
}

/** The embedded database: loaded beside the target, checked, then put in its place. */
async function restoreEmbedded(archive: string, manifest: TManifest): Promise<void> {
  const { pgliteDir } = env();
  const release = openDataDir(pgliteDir, env().DATA_DIR);
  const staging = `${pgliteDir}.restoring-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    step(`Loading the backup's database beside ${pgliteDir}…`);
    const pglite = await loadEmbeddedDatabase(readFileSync(join(archive, manifest.database.file)), staging);
    const handle = openDb({ kind: "pglite", pglite });
    let restored: TCheckpointMark[];
    try {
      restored = await databaseCheckpoints(handle.client);
    } finally {
      await handle.close();
      await pglite.close();
    }
    step(`The backup's database holds ${restored.length} signed checkpoint(s).`);
    const { rolledBackFile } = checkRollback(restored);
    replaceDirectory(staging, pgliteDir);
    step(`Database restored into ${pgliteDir}.`);
    restoreFiles(archive, manifest, rolledBackFile);
  } finally {
    rmSync(staging, { recursive: true, force: true });
    release();
  }
}

async function restorePg(archive: string, manifest: TManifest): Promise<void> {
  const appUrl = configuredTarget().kind === "postgres" ? env().DATABASE_URL! : refuse("DATABASE_URL is not set.");
  const ownerUrl = migrationUrl(appUrl, env().MIGRATION_DATABASE_URL);
  const tables = await countAppTables(ownerUrl);
  if (tables > 0 && !values.force)
    refuse(
      `The database ${new URL(appUrl).pathname.slice(1)} is not empty (${tables} tables): restore into a new one, or replace it with --force.`,
    );
  const { rolledBackFile } = checkRollback(manifest.databaseCheckpoints ?? []);
  step(`Restoring with pg_restore (one transaction)${tables > 0 ? ", replacing what is there" : ""}…`);
  await restorePostgres(ownerUrl, join(archive, manifest.database.file), { replace: tables > 0 });
  if (ownerUrl !== appUrl) {
    const report = await grantAppRole({ ownerUrl, appUrl });
    step(report.warning ?? `Granted ${report.appRole} its share of the restored tables.`);
  }
  step("Database restored.");
  restoreFiles(archive, manifest, rolledBackFile);
}

/** The checkpoint file, the keys: beside the restored database. */
function restoreFiles(archive: string, manifest: TManifest, rolledBackFile: string | undefined): void {
  const target = checkpointFile();
  if (rolledBackFile) {
    const aside = join(dirname(target), `${basename(target)}${SET_ASIDE_MARK}${new Date().toISOString().replace(/[:.]/g, "-")}`);
    renameSync(target, aside);
    step(`The newer checkpoint file is kept as ${aside}: audit:verify names the rollback against it.`);
  }
  if (manifest.checkpoints) {
    const held = existsSync(target) ? readCheckpointFile(target).length : -1;
    if (held < manifest.checkpoints.count) {
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      copyFileSync(join(archive, manifest.checkpoints.file), target);
      chmodSync(target, 0o600);
      step(`Checkpoint file: ${manifest.checkpoints.count} checkpoint(s) into ${target}.`);
    }
  }
  const dataDir = resolve(env().DATA_DIR);
  for (const secret of manifest.secrets) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    copyFileSync(join(archive, secret), join(dataDir, basename(secret)));
    chmodSync(join(dataDir, basename(secret)), 0o600);
  }
  if (manifest.secrets.length)
    step(`Private keys and secrets restored into ${dataDir}: ${manifest.secrets.map((s) => basename(s)).join(", ")}.`);
  const keyRestored = manifest.secrets.includes(`${KEYS_DIR}/audit-signing-key.pem`);
  if (manifest.publicKey && keyRestored) copyFileSync(join(archive, PUBLIC_KEY), join(dataDir, PUBLIC_KEY));
  else if (manifest.publicKey)
    step(
      `The backup carries no audit signing key: set AUDIT_SIGNING_KEY (key ${manifest.publicKey.keyId}) from your secret store before starting, or new checkpoints are signed with a new key. Check the restored trail with npm run audit:verify -- --public-key ${join(archive, PUBLIC_KEY)}`,
    );
}

async function main(): Promise<number> {
  if (positionals.length !== 1) refuse("Usage: npm run db:restore -- BACKUP_DIR [--force] [--accept-rollback] [--checkpoints FILE]");
  const archive = resolve(positionals[0]!);
  const manifest = readArchive(archive);
  step(
    `Backup of ${manifest.createdAt} (${manifest.database.kind === "pglite" ? "embedded database" : "PostgreSQL"}), checksums verified.`,
  );
  const kind = configuredTarget().kind;
  if (manifest.database.kind !== kind)
    refuse(
      kind === "postgres"
        ? "This is a backup of the embedded database, and DATABASE_URL is set: unset it to restore into DATA_DIR."
        : "This is a backup of PostgreSQL: set DATABASE_URL to the (new, empty) database to restore it into.",
    );
  if (kind === "pglite") {
    const occupied = [...new Set([...contents(env().DATA_DIR), ...contents(env().pgliteDir)])];
    if (occupied.length && !values.force)
      refuse(
        `${resolve(env().DATA_DIR)} is not empty (${occupied.slice(0, 5).join(", ")}): restore into a new DATA_DIR, or replace it with --force.`,
      );
    await restoreEmbedded(archive, manifest);
  } else {
    await restorePg(archive, manifest);
  }
  console.log("Restore complete. Check it with npm run audit:verify.");
  return 0;
}

runScript(main);
