// Signed checkpoints: the audit chain's state, signed with a key the database never sees, and kept
// outside it. Someone who holds the database (its app role, or its superuser) can rewrite rows and
// re-hash every chain; they cannot sign. `npm run audit:verify` compares the database with the
// signed checkpoints and names what changed.
//
// Checkpoint n covers every event (and ledger row) written by a transaction whose id is below its
// horizon – the oldest transaction still running when it was signed, so nothing can later appear
// below it. Its window is the events between the previous horizon and its own, in (txid, seq) order;
// it signs their count and a digest of their hashes, the ledger's count and total below the
// horizon, and the previous checkpoint's hash, so checkpoints form a chain of their own.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
// The paths below are settings, read at run time: /*turbopackIgnore*/ keeps the bundler from
// tracing the whole project for them.
import { Prisma, type Db } from "../db";
import { env } from "../env";
import { logLine } from "../observability/logger";
import { canonicalJson, sha256Hex } from "../contracts/canonical";
import { GENESIS_HASH } from "./record-audit-event";
import { insertCheckpoint } from "./store/audit-store";

/** What a checkpoint signs. Big numbers travel as decimal strings. */
export interface TCheckpointBody {
  position: number;
  signedAt: string;
  horizon: string;
  events: string;
  windowEvents: number;
  windowDigest: string;
  ledgerRows: number;
  ledgerCents: string;
  prevHash: string;
  keyId: string;
}

export interface TCheckpoint extends TCheckpointBody {
  hash: string;
  /** Ed25519 over the hash, base64. */
  signature: string;
}

export interface TSigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicKeyPem: string;
  keyId: string;
}

export const EMPTY_WINDOW_DIGEST = sha256Hex("");

// One signer at a time, whichever instance: a transaction-scoped advisory lock, tried, never waited on.
const SIGNER_LOCK = 0x63707473; // "cpts"

export function keyIdOf(publicKey: KeyObject): string {
  return sha256Hex(publicKey.export({ type: "spki", format: "der" }).toString("hex")).slice(0, 16);
}

function signingKeyFrom(pem: string): TSigningKey {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("AUDIT_SIGNING_KEY must be an Ed25519 key");
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(), keyId: keyIdOf(publicKey) };
}

export function signingKeyFile(): string {
  return resolve(env().DATA_DIR, "audit-signing-key.pem");
}

export function checkpointFile(): string {
  return resolve(/*turbopackIgnore: true*/ env().AUDIT_CHECKPOINT_FILE ?? join(env().DATA_DIR, "audit-checkpoints.jsonl"));
}

/**
 * The signing key: AUDIT_SIGNING_KEY when set; otherwise a key generated on first use into DATA_DIR
 * (mode 0600), its public half published beside it. Several instances must share one key.
 */
export function signingKey(log: (line: string) => void = logLine): TSigningKey {
  const configured = env().AUDIT_SIGNING_KEY;
  if (configured) return signingKeyFrom(configured);
  const file = signingKeyFile();
  if (!existsSync(/*turbopackIgnore: true*/ file)) {
    mkdirSync(/*turbopackIgnore: true*/ dirname(file), { recursive: true });
    const { privateKey } = generateKeyPairSync("ed25519");
    try {
      writeFileSync(/*turbopackIgnore: true*/ file, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600, flag: "wx" });
      log(
        `No AUDIT_SIGNING_KEY set: created the audit signing key in ${file} (keep it off the database's machine to make checkpoints count).`,
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  const key = signingKeyFrom(readFileSync(/*turbopackIgnore: true*/ file, "utf8"));
  const pub = file.replace(/\.pem$/, ".pub.pem");
  if (!existsSync(/*turbopackIgnore: true*/ pub)) writeFileSync(/*turbopackIgnore: true*/ pub, key.publicKeyPem, { mode: 0o644 });
  return key;
}

/** The public key verify checks against: a PEM file, else the signing key's public half. */
export function verifyingKey(publicKeyFile?: string): KeyObject | null {
  if (publicKeyFile) return createPublicKey(readFileSync(/*turbopackIgnore: true*/ publicKeyFile, "utf8"));
  if (env().AUDIT_SIGNING_KEY || existsSync(/*turbopackIgnore: true*/ signingKeyFile())) return signingKey(() => {}).publicKey;
  return null;
}

export function checkpointHash(body: TCheckpointBody): string {
  return sha256Hex(canonicalJson(body));
}

export function checkpointSignatureValid(checkpoint: TCheckpoint, publicKey: KeyObject): boolean {
  const { hash, signature, ...body } = checkpoint;
  if (checkpointHash(body) !== hash) return false;
  try {
    return verify(null, Buffer.from(hash), publicKey, Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
}

/** A window's digest: sha256 over its events' hashes, in order (what the signer computes in SQL). */
export function windowDigester() {
  const digest = createHash("sha256");
  return { add: (hash: string) => void digest.update(hash), done: () => digest.digest("hex") };
}

type TCheckpointRow = {
  position: number;
  signedAt: Date;
  horizon: bigint;
  events: bigint;
  windowEvents: number;
  windowDigest: string;
  ledgerRows: number;
  ledgerCents: bigint;
  prevHash: string;
  hash: string;
  signature: string;
  keyId: string;
};

export function checkpointFromRow(row: TCheckpointRow): TCheckpoint {
  return {
    position: row.position,
    signedAt: row.signedAt.toISOString(),
    horizon: row.horizon.toString(),
    events: row.events.toString(),
    windowEvents: row.windowEvents,
    windowDigest: row.windowDigest,
    ledgerRows: row.ledgerRows,
    ledgerCents: row.ledgerCents.toString(),
    prevHash: row.prevHash,
    keyId: row.keyId,
    hash: row.hash,
    signature: row.signature,
  };
}

export type TCheckpointResult = { signed: TCheckpoint } | { skipped: "busy" | "nothing_new" };

/**
 * Signs the chain's state now, if another signer is not at it and something happened since the last
 * checkpoint; writes it to the database, then to the checkpoint file and the log. A checkpoint that
 * reached the database but not the file (a crash in between) is written at the next call.
 */
export async function takeCheckpoint(
  client: Db,
  options: { log?: (line: string) => void; key?: TSigningKey; file?: string; now?: Date } = {},
): Promise<TCheckpointResult> {
  const log = options.log ?? logLine;
  const key = options.key ?? signingKey(log);
  const file = options.file ?? checkpointFile();
  const result = await client.$transaction(
    async (tx): Promise<TCheckpointResult> => {
      // The first statement fixes the transaction's snapshot; the horizon is that snapshot's xmin.
      const [state] = await tx.$queryRaw<{ locked: boolean; horizon: bigint }[]>`
        SELECT pg_try_advisory_xact_lock(${SIGNER_LOCK}) AS locked, (pg_snapshot_xmin(pg_current_snapshot()))::text::bigint AS horizon`;
      if (!state!.locked) return { skipped: "busy" };
      const [last] = await tx.$queryRaw<TCheckpointRow[]>`SELECT * FROM "AuditCheckpoint" ORDER BY "position" DESC LIMIT 1`;
      const from = last?.horizon ?? 0n;
      const horizon = state!.horizon > from ? state!.horizon : from;
      const [window] = await tx.$queryRaw<{ n: number; digest: string; ledgerRows: number; ledgerCents: bigint }[]>`
        SELECT (SELECT count(*)::int FROM "AuditEvent" WHERE "txid" >= ${from} AND "txid" < ${horizon}) AS n,
               (SELECT encode(sha256(convert_to(coalesce(string_agg("hash", '' ORDER BY "txid", "seq"), ''), 'UTF8')), 'hex')
                  FROM "AuditEvent" WHERE "txid" >= ${from} AND "txid" < ${horizon}) AS digest,
               (SELECT count(*)::int FROM "LedgerEntry" WHERE "txid" < ${horizon}) AS "ledgerRows",
               (SELECT coalesce(sum("amountCents"), 0)::bigint FROM "LedgerEntry" WHERE "txid" < ${horizon}) AS "ledgerCents"`;
      if (last && window!.n === 0 && window!.ledgerRows === last.ledgerRows) return { skipped: "nothing_new" };
      const body: TCheckpointBody = {
        position: (last?.position ?? 0) + 1,
        signedAt: (options.now ?? new Date()).toISOString(),
        horizon: horizon.toString(),
        events: ((last?.events ?? 0n) + BigInt(window!.n)).toString(),
        windowEvents: window!.n,
        windowDigest: window!.digest,
        ledgerRows: window!.ledgerRows,
        ledgerCents: window!.ledgerCents.toString(),
        prevHash: last?.hash ?? GENESIS_HASH,
        keyId: key.keyId,
      };
      const hash = checkpointHash(body);
      const signed: TCheckpoint = { ...body, hash, signature: sign(null, Buffer.from(hash), key.privateKey).toString("base64") };
      await insertCheckpoint(tx, {
        ...signed,
        signedAt: new Date(signed.signedAt),
        horizon,
        events: BigInt(signed.events),
        ledgerCents: BigInt(signed.ledgerCents),
      });
      return { signed };
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, timeout: 120_000, maxWait: 10_000 },
  );
  await exportCheckpoints(client, file);
  if ("signed" in result) {
    const c = result.signed;
    log(
      `audit checkpoint ${JSON.stringify({ position: c.position, events: c.events, windowEvents: c.windowEvents, ledgerRows: c.ledgerRows, ledgerCents: c.ledgerCents, hash: c.hash, signature: c.signature, keyId: c.keyId })}`,
    );
  }
  return result;
}

/** Appends to the file every database checkpoint it does not hold yet (it only ever grows). */
export async function exportCheckpoints(client: Db, file = checkpointFile()): Promise<number> {
  const held = readCheckpointFile(file);
  const after = held.at(-1)?.position ?? 0;
  const rows = await client.auditCheckpoint.findMany({ where: { position: { gt: after } }, orderBy: { position: "asc" } });
  if (rows.length === 0) return 0;
  mkdirSync(/*turbopackIgnore: true*/ dirname(file), { recursive: true });
  appendFileSync(/*turbopackIgnore: true*/ file, rows.map((r) => JSON.stringify(checkpointFromRow(r)) + "\n").join(""), { mode: 0o600 });
  return rows.length;
}

/** The checkpoint file's entries; a line that does not parse is reported by verify, not skipped. */
export function readCheckpointFile(file = checkpointFile()): TCheckpoint[] {
  if (!existsSync(/*turbopackIgnore: true*/ file)) return [];
  return readFileSync(/*turbopackIgnore: true*/ file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as TCheckpoint);
}
