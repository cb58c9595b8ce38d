// Who may decide what: reviewers approve refunds below the specialist threshold, specialists (and
// admins) any; leads read but never approve.
import type { Role } from "../../generated/prisma/enums";

const RANK: Record<Role, number> = { LEAD: 0, REVIEWER: 1, SPECIALIST: 2, ADMIN: 3 };

/** Whether a decider of `role` satisfies an approval that requires `required`. */
export function roleSatisfies(role: Role, required: Role): boolean {
  if (role === "LEAD") return false;
  return RANK[role] >= RANK[required];
}
