// The one rule about admins: a change never leaves the app without an active admin who can sign in,
// or nobody could add people, change settings or retry a failed job again.
import type { Prisma } from "../../generated/prisma/client";
import { AppError } from "../contracts/app-error";
import { loadSsoPolicy } from "./oidc-settings";

/**
 * Refuses (`last_admin`) when `losingUserId` is an active admin and no other active admin can sign
 * in. Only a password signs in (the Credentials provider is the app's one sign-in method), so an
 * invited admin who never used their link (`passwordPending`) does not count: once the link expires, nobody could sign
 * in to make them a new one. The active admins' rows are locked first, so two admins demoting or
 * deactivating each other at once cannot both pass: the second waits for the first to commit,
 * re-reads, and finds no other admin left – only itself, the one it was about to remove.
 *
 * While sign-in through the identity provider is required, the break-glass admin is refused first
 * (`break_glass_admin`): they are the one admin whose password still works when the provider is down.
 * The policy is read after the admins' rows are locked, and updateSsoPolicy takes the same locks
 * before it checks its break-glass admin, so naming someone and demoting them at once cannot both pass.
 */
export async function assertAnotherAdminRemains(tx: Prisma.TransactionClient, losingUserId: string): Promise<void> {
  const admins = await tx.$queryRaw<{ id: string; canSignIn: boolean }[]>`
    SELECT "id"::text, NOT "passwordPending" AS "canSignIn" FROM "User" WHERE "role" = 'ADMIN' AND "active" ORDER BY "id" FOR UPDATE`;
  const sso = await loadSsoPolicy(tx);
  if (sso.requireSso && sso.breakGlassUserId === losingUserId) {
    throw new AppError(
      "break_glass_admin",
      "This is the break-glass admin, who signs in with a password while everyone else must use the identity provider: name another break-glass admin on the Sign-in page first.",
    );
  }
  if (admins.some((a) => a.id === losingUserId) && !admins.some((a) => a.id !== losingUserId && a.canSignIn)) {
    throw new AppError(
      "last_admin",
      "This is the only active admin who can sign in: make someone else an admin first (an invited admin counts once their password is set).",
    );
  }
}
