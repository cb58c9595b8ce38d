// npm run db:backup and db:restore, run as the commands they are (child processes): a backup restored
// keeps every row and verifies with npm run audit:verify; on the embedded database the backup is
// taken from the process holding the data directory while it writes; a backup older than the signed
// checkpoints is a rollback, refused unless accepted and named by audit:verify.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDb } from "../testing/db";
import { testAuditAction, untilCheckpointCoversAll } from "../testing/audit";
import { adminQuery, ownerUrl, testDatabaseBase, withDatabase } from "../testing/postgres";
import { killHard, runTs, spawnTs, type TScriptRun } from "../testing/spawn-ts";
import { openDb, type Db } from "../lib/db";
import { loadEmbeddedDatabase } from "../lib/db/embedded-backup";
import { keyIdOf, takeCheckpoint, type TSigningKey } from "../lib/audit/checkpoint";
import { recordAuditEvent } from "../lib/audit/record-audit-event";

const root = mkdtempSync(join(tmpdir(), "countersign-backup-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const PG = process.env.DATABASE_URL;

/** A command with DATA_DIR (and, on PostgreSQL, the database) of the test's choosing. */
function run(script: string, args: string[], dataDir: string, databaseUrl?: string): Promise<TScriptRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  delete env.PGLITE_DATA_DIR;
  delete env.AUDIT_CHECKPOINT_FILE;
  delete env.AUDIT_SIGNING_KEY;
  if (databaseUrl) {
    env.DATABASE_URL = databaseUrl;
    env.MIGRATION_DATABASE_URL = ownerUrl(databaseUrl);
  } else {
    delete env.DATABASE_URL;
    delete env.MIGRATION_DATABASE_URL;
  }
  return runTs(script, args, env);
}

function newKey(dataDir: string): TSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  writeFileSync(join(dataDir, "audit-signing-key.pem"), privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
  writeFileSync(join(dataDir, "audit-signing-key.pub.pem"), publicKeyPem);
  return { privateKey, publicKey, publicKeyPem, keyId: keyIdOf(publicKey) };
}

/** Audit events in a few streams and a checkpoint signed over them with DATA_DIR's key, into its checkpoint file. */
async function checkpointedWorld(client: Db, dataDir: string): Promise<TSigningKey> {
  await writeEvents(client, 12);
  const key = newKey(dataDir);
  await signCheckpoint(client, key, dataDir);
  return key;
}

async function writeEvents(client: Db, n: number): Promise<void> {
  for (let i = 0; i < n; i++)
    await recordAuditEvent(client, { actorType: "system", action: testAuditAction("world"), subjectType: "test", subjectId: `s${i % 4}` });
}

async function signCheckpoint(client: Db, key: TSigningKey, dataDir: string): Promise<void> {
  await untilCheckpointCoversAll(client);
  const result = await takeCheckpoint(client, { key, file: join(dataDir, "audit-checkpoints.jsonl"), log: () => {} });
  expect(result).toHaveProperty("signed");
}

/** Every table's row count, every stream's head and every checkpoint's hash. */
async function contents(client: Db) {
  const tables = await client.$queryRawUnsafe<{ name: string }[]>(
    `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables WHERE schemaname IN ('public', 'pgboss') ORDER BY 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables)
    counts[name] = (await client.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${name}`))[0]!.n;
  const heads = await client.$queryRawUnsafe<{ stream: string; events: string; headHash: string }[]>(
    `SELECT "stream", "events"::text AS events, "headHash" FROM "AuditStream" ORDER BY "stream"`,
  );
  const checkpoints = await client.$queryRawUnsafe<{ hash: string }[]>(`SELECT "hash" FROM "AuditCheckpoint" ORDER BY "position"`);
  return { counts, heads, checkpoints };
}

/** What a person reads: output without the JSON log lines. */
const said = (r: TScriptRun) => (r.stdout + r.stderr).split("\n").filter((l) => l.trim() && !l.startsWith("{"));

describe.skipIf(PG)("backup and restore of the embedded database", () => {
  const source = join(root, "source");
  const b1 = join(root, "b1");
  let key: TSigningKey | undefined;

  it("backs up from the process holding the data directory while it writes, and the restored copy keeps every row and verifies", async () => {
    const db = await createTestDb();
    mkdirSync(source, { recursive: true });
    key = await checkpointedWorld(db.client, source);
    const before = await contents(db.client);
    const copy = await loadEmbeddedDatabase(
      Buffer.from(await (await db.pglite!.dumpDataDir("none")).arrayBuffer()),
      join(source, "pglite"),
    );
    await copy.close();
    await db.close();

    const holder = spawnTs("testing/hold-and-write.ts", [join(source, "pglite")]);
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("holding") && resolve());
        holder.once("exit", (code) => reject(new Error(`holder exited with ${code}`)));
      });
      const backup = await run("scripts/backup.ts", ["--out", b1, "--with-keys"], source);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toContain(`in use by process ${holder.pid} (the running server?): asking it for a consistent copy`);
      expect(backup.stderr).toMatch(/WARNING: this backup holds private keys and secrets \(audit-signing-key\.pem\)/);
    } finally {
      await killHard(holder);
    }

    const target = join(root, "restored");
    const restore = await run("scripts/restore.ts", [b1], target);
    expect(restore.code, restore.stderr).toBe(0);
    const restored = openDb({ kind: "pglite", dir: join(target, "pglite") });
    try {
      const after = await contents(restored.client);
      // The holder wrote events (and their streams' heads) all along: those only grew. Nothing else changed.
      const grew = ['public."AuditEvent"', 'public."AuditStream"'];
      const rest = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([name]) => !grew.includes(name)));
      expect(rest(after.counts)).toEqual(rest(before.counts));
      const [eventsBefore, eventsAfter] = [before.counts[grew[0]!], after.counts[grew[0]!]];
      expect(eventsAfter).toBeGreaterThan(eventsBefore!);
      expect(Object.keys(after.counts)).toContain('public."LedgerEntry"');
      expect(after.checkpoints).toEqual(before.checkpoints);
      for (const head of before.heads) {
        const found = await restored.client.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM "AuditEvent" WHERE "stream" = $1 AND "hash" = $2`,
          head.stream,
          head.headHash,
        );
        expect(found[0]!.n, head.stream).toBe(1);
      }
    } finally {
      await restored.close();
    }
    const verify = await run("scripts/audit-verify.ts", [], target);
    expect(said(verify)[0], verify.stdout).toMatch(/^Audit chain verifies: \d+ events covered by 1 signed checkpoint\(s\)/);
    expect(verify.code).toBe(0);

    expect(readFileSync(join(target, "audit-signing-key.pem"), "utf8")).toBe(readFileSync(join(source, "audit-signing-key.pem"), "utf8"));
  }, 180_000);

  it("calls a restore of a backup older than the signed checkpoints a rollback: refused, then accepted and named by audit:verify", async () => {
    // The source went on after the backup (the holder's events); a second checkpoint signs them.
    const db = openDb({ kind: "pglite", dir: join(source, "pglite") });
    try {
      await signCheckpoint(db.client, key!, source);
    } finally {
      await db.close();
    }
    const cpFile = join(source, "audit-checkpoints.jsonl");
    const newer = readFileSync(cpFile, "utf8");

    const occupied = await run("scripts/restore.ts", [b1], source);
    expect(occupied.code).toBe(2);
    expect(said(occupied).at(-1)).toMatch(/is not empty \(.*\): restore into a new DATA_DIR, or replace it with --force\.$/);

    const refused = await run("scripts/restore.ts", [b1, "--force"], source);
    expect(refused.code).toBe(2);
    expect(said(refused).at(-1)).toMatch(
      /^Refused: restoring this backup is a ROLLBACK – the database is behind its checkpoint file \(rolled back\): it holds the signed checkpoints up to 1, the checkpoint file .* up to 2 .*which signed \d+ audit event\(s\) and 0 ledger row\(s\) after checkpoint 1/,
    );
    expect(readFileSync(cpFile, "utf8")).toBe(newer);

    const accepted = await run("scripts/restore.ts", [b1, "--force", "--accept-rollback"], source);
    expect(accepted.code, accepted.stderr).toBe(0);
    const aside = readdirSync(source).filter((name) => name.startsWith("audit-checkpoints.jsonl.rolled-back-"));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(source, aside[0]!), "utf8")).toBe(newer);

    const verify = await run("scripts/audit-verify.ts", [], source);
    expect(verify.code, verify.stdout).toBe(0);
    expect(said(verify)).toContainEqual(
      expect.stringMatching(
        /^Rolled back at a restore \(accepted\): the database is behind its checkpoint file \(rolled back\): it holds the signed checkpoints up to 1, the checkpoint file .*rolled-back-.* up to 2/,
      ),
    );
    const named = await run("scripts/audit-verify.ts", ["--checkpoints", join(source, aside[0]!)], source);
    expect(named.code).toBe(1);
    expect(said(named).slice(0, 2)).toEqual([
      "Audit chain BROKEN: 1 problem(s).",
      expect.stringMatching(
        /^- the database is behind its checkpoint file \(rolled back\): it holds the signed checkpoints up to 1, the checkpoint file .* up to 2/,
      ),
    ]);
  }, 180_000);
});

describe.skipIf(!PG)("backup and restore on PostgreSQL", () => {
  it("pg_dump and pg_restore into a fresh database keep every row, and the restored copy verifies", async () => {
    const source = join(root, "pg-source");
    mkdirSync(source, { recursive: true });
    const db = await createTestDb();
    const name = `${testDatabaseBase(PG!)}_restore_${randomBytes(4).toString("hex")}`;
    try {
      await checkpointedWorld(db.client, source);
      const before = await contents(db.client);
      const archive = join(root, "pg-backup");
      const backup = await run("scripts/backup.ts", ["--out", archive], source, db.url);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toContain("1 signed checkpoint(s) in it");
      expect(backup.stdout).toContain("Private keys and secrets NOT included: audit-signing-key.pem");
      expect(existsSync(join(archive, "keys"))).toBe(false);

      await adminQuery(PG!, `CREATE DATABASE "${name}"`);
      const url = withDatabase(PG!, name);
      const target = join(root, "pg-target");
      const restore = await run("scripts/restore.ts", [archive], target, url);
      expect(restore.code, restore.stderr).toBe(0);
      const again = await run("scripts/restore.ts", [archive], target, url);
      expect(again.code).toBe(2);
      expect(said(again).at(-1)).toMatch(
        /^The database .* is not empty \(\d+ tables\): restore into a new one, or replace it with --force\.$/,
      );

      const restored = openDb({ kind: "postgres", url: ownerUrl(url), max: 2 });
      try {
        expect(await contents(restored.client)).toEqual(before);
      } finally {
        await restored.close();
      }
      const verify = await run("scripts/audit-verify.ts", ["--public-key", join(archive, "audit-signing-key.pub.pem")], target, url);
      expect(said(verify)[0], verify.stdout).toMatch(/^Audit chain verifies: 12 events covered by 1 signed checkpoint\(s\)/);
      expect(verify.code).toBe(0);
    } finally {
      await db.close();
      await adminQuery(PG!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  }, 180_000);
});
