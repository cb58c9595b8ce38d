// The signed checkpoints for whoever keeps a copy of their own off this machine (GET
// /api/audit/checkpoints): each exactly as the checkpoint file holds it, with the public key that
// verifies them. Without `after`, the latest ones; with it, forward from a position the reader holds
// (`after=0` starts at the first). Reading changes nothing, so a retried read is harmless.
import { existsSync } from "node:fs";
import { z } from "zod";
import { db as defaultDb, type Db } from "../db";
import { env } from "../env";
import { checkpointFromRow, signingKey, signingKeyFile, type TCheckpoint, type TSigningKey } from "./checkpoint";

export const CHECKPOINT_PAGE_SIZE = 100;
export const CHECKPOINT_PAGE_MAX = 1000;

export const ZCheckpointQuery = z.strictObject({
  after: z
    .string()
    .regex(/^\d{1,9}$/, "must be a checkpoint position: a whole number, 0 or more")
    .transform(Number)
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, `must be a whole number from 1 to ${CHECKPOINT_PAGE_MAX}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, `must be a whole number from 1 to ${CHECKPOINT_PAGE_MAX}`)
        .max(CHECKPOINT_PAGE_MAX, `must be a whole number from 1 to ${CHECKPOINT_PAGE_MAX}`),
    )
    .optional(),
});
export type TCheckpointQuery = z.output<typeof ZCheckpointQuery>;

export interface TCheckpointPage {
  /** The public half of this instance's signing key (SPKI PEM); null until it has one. */
  publicKey: string | null;
  keyId: string | null;
  /** Oldest first. */
  checkpoints: TCheckpoint[];
  /** The `after` of the following page when this one is full (forward paging only), else null. */
  next: number | null;
}

/**
 * The key is the one this instance signs with; a read never creates one (an instance that has none
 * would publish a key nobody signs with). Each checkpoint names its own keyId.
 */
function publishedKey(): TSigningKey | null {
  return env().AUDIT_SIGNING_KEY || existsSync(signingKeyFile()) ? signingKey(() => {}) : null;
}

export async function listCheckpoints(input: TCheckpointQuery & { client?: Db; key?: TSigningKey | null } = {}): Promise<TCheckpointPage> {
  const client = input.client ?? defaultDb();
  const limit = Math.min(Math.max(input.limit ?? CHECKPOINT_PAGE_SIZE, 1), CHECKPOINT_PAGE_MAX);
  const key = input.key === undefined ? publishedKey() : input.key;
  const published = { publicKey: key?.publicKeyPem ?? null, keyId: key?.keyId ?? null };
  if (input.after === undefined) {
    const rows = await client.auditCheckpoint.findMany({ orderBy: { position: "desc" }, take: limit });
    return { ...published, checkpoints: rows.reverse().map(checkpointFromRow), next: null };
  }
  const rows = await client.auditCheckpoint.findMany({
    where: { position: { gt: input.after } },
    orderBy: { position: "asc" },
    take: limit,
  });
  return { ...published, checkpoints: rows.map(checkpointFromRow), next: rows.length === limit ? rows.at(-1)!.position : null };
}
