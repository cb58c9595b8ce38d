// The backup archive shared by db:backup and db:restore: one directory holding the database (a
// PGlite data-directory tarball or a pg_dump custom-format file), the audit checkpoint file, the
// audit public key and, only when asked, the private keys and generated secrets; manifest.json names
// each with its SHA-256 and is written last, so a directory without it is an unfinished backup.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../lib/contracts/app-error";
import type { TCheckpointMark } from "../lib/audit/rollback";

export const FORMAT = "countersign-backup";
export const VERSION = 1;

/** The files in DATA_DIR that hold private keys or secrets: carried only with --with-keys. */
export const SECRET_FILES = ["audit-signing-key.pem", "auth-secret", "intake-secret", "intake-bundle-key"] as const;
/** The variables that replace them when set: never written to a backup. */
export const SECRET_VARIABLES = ["AUDIT_SIGNING_KEY", "AUTH_SECRET", "INTAKE_SECRET", "INTAKE_SECRETS", "INTAKE_BUNDLE_KEY"] as const;

export const PUBLIC_KEY = "audit-signing-key.pub.pem";
export const CHECKPOINTS = "audit-checkpoints.jsonl";
export const KEYS_DIR = "keys";

export interface TManifest {
  format: typeof FORMAT;
  version: typeof VERSION;
  createdAt: string;
  database: { kind: "pglite" | "postgres"; file: string };
  /** The signed checkpoints the database holds (PostgreSQL: read in the dump's snapshot). */
  databaseCheckpoints?: TCheckpointMark[];
  checkpoints: { file: string; count: number } | null;
  publicKey: { file: string; keyId: string } | null;
  /** Private keys and secrets carried (files under keys/): empty unless --with-keys. */
  secrets: string[];
  /** Every file of the archive, relative to it, with its SHA-256. */
  files: Record<string, string>;
}

export function sha256File(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function refuse(message: string): never {
  throw new AppError("invalid", message);
}

/** The archive's manifest, after checking it is one and that every file it names is whole. */
export function readArchive(dir: string): TManifest {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    refuse(`${dir} is not a directory: give the backup's directory (made by npm run db:backup).`);
  const file = join(dir, "manifest.json");
  if (!existsSync(file)) refuse(`${dir} is not a Countersign backup: it has no manifest.json (an unfinished backup has none either).`);
  let manifest: TManifest;
  try {
    manifest = JSON.parse(readFileSync(file, "utf8")) as TManifest;
  } catch {
    refuse(`${file} is not valid JSON: the backup is damaged.`);
  }
  if (manifest.format !== FORMAT || manifest.version !== VERSION)
    refuse(`${dir} is not a backup this version can read (format ${String(manifest.format)}, version ${String(manifest.version)}).`);
  for (const [name, sum] of Object.entries(manifest.files)) {
    const path = join(dir, name);
    if (!existsSync(path)) refuse(`The backup is incomplete: ${name} is missing from ${dir}.`);
    if (sha256File(path) !== sum) refuse(`The backup is damaged: ${name} does not match the checksum its manifest recorded.`);
  }
  return manifest;
}
