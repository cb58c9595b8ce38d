// The one rule about admins: a change never leaves the app without an active admin, or nobody could
// add people, change settings or retry a failed job again.
import type { Prisma } from "../../generated/prisma/client";
import { AppError } from "../contracts/app-error";

/**
 * Refuses (`last_admin`) when `losingUserId` is the only active admin. The active admins' rows are
 * locked first, so two admins demoting or deactivating each other at once cannot both pass: the
 * second waits for the first to commit, re-reads, and finds one admin left – itself, the one it
 * was about to remove.
 */
export async function assertAnotherAdminRemains(tx: Prisma.TransactionClient, losingUserId: string): Promise<void> {
  const admins = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id"::text FROM "User" WHERE "role" = 'ADMIN' AND "active" ORDER BY "id" FOR UPDATE`;
  if (admins.some((a) => a.id === losingUserId) && admins.length <= 1) {
    throw new AppError("last_admin", "This is the only active admin: make someone else an admin first.");
  }
}
