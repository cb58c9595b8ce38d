// Set-password links: the token a person uses once to choose their password. The token is 32 random
// bytes, shown to the admin once; only its SHA-256 is stored, so a copy of the database does not hold
// a working link. A link works for 24 hours and once; issuing a new one voids the person's others.
import { createHash, randomBytes } from "node:crypto";
import type { Prisma } from "../../generated/prisma/client";

export const PASSWORD_LINK_HOURS = 24;
/** Where a link points: the set-password page with the token in the path's last segment. */
export const SET_PASSWORD_PATH = "/set-password";

export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A well-formed token: 43 base64url characters (32 bytes). Anything else is refused before a query. */
export function isLinkToken(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/**
 * Issues a link for `userId` inside the caller's transaction (the caller audits it): voids the
 * person's unused links, stores the new token's hash, and returns the token – the only time it exists.
 */
export async function issuePasswordLink(
  tx: Prisma.TransactionClient,
  input: { userId: string; issuedById: string; now: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(input.now.getTime() + PASSWORD_LINK_HOURS * 3_600_000);
  await tx.passwordLink.updateMany({ where: { userId: input.userId, usedAt: null }, data: { usedAt: input.now } });
  await tx.passwordLink.create({
    data: { userId: input.userId, tokenHash: hashLinkToken(token), issuedById: input.issuedById, expiresAt, createdAt: input.now },
  });
  return { token, expiresAt };
}
