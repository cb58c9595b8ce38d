// The bench's process environment, set before anything reads the settings (import this first). Fixed
// secrets for the bench's own database and the server it starts on it, and a scratch data directory,
// so the bench never reads, creates or replaces anything in the installation's data directory; the
// configured embedded database (the page queries read it) stays where the settings put it.
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const BENCH_SECRETS = {
  AUTH_SECRET: "bench-only-auth-secret-0123456789abcdef0123",
  INTAKE_SECRET: "bench-only-intake-secret-0123456789abcdef01",
  INTAKE_BUNDLE_KEY: "bench-only-bundle-key-0123456789abcdef01234",
};

const configuredPglite = process.env.PGLITE_DATA_DIR ?? join(process.env.DATA_DIR ?? ".data", "pglite");
const scratch = mkdtempSync(join(tmpdir(), "countersign-bench-data-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

// One audit signing key and checkpoint file for the bench and every server it starts: a server's worker
// signs checkpoints on the bench database too (always on the embedded one), and the audit figures
// verify the chain against them.
const auditKey = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

Object.assign(process.env, BENCH_SECRETS, {
  NEXT_TELEMETRY_DISABLED: "1",
  PGLITE_DATA_DIR: configuredPglite,
  DATA_DIR: scratch,
  AUDIT_SIGNING_KEY: auditKey,
  AUDIT_CHECKPOINT_FILE: join(scratch, "audit-checkpoints.jsonl"),
  // Counted, never refused: the limiter's statements are part of intake's figure, its refusals are not.
  INTAKE_RATE_LIMIT: "1000000000",
  INTAKE_RATE_LIMIT_PER_ADDRESS: "1000000000",
});
