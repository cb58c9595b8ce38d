// Roles and what each may do: the one module of role rules. AREAS says who may use each part of the
// app (the navigation, every page, action and route, the domain functions that re-check, the access
// tests); roleSatisfies says who may decide an approval that requires a role.
import type { Role } from "../../generated/prisma/enums";

export type { Role };
export const ROLES = ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"] as const satisfies readonly Role[];

export const ROLE_LABELS: Record<Role, string> = {
  REVIEWER: "Reviewer",
  SPECIALIST: "Specialist",
  LEAD: "Lead",
  ADMIN: "Admin",
};

/** Every area of the app and the roles allowed in it. Absent from a list means refused. */
export const AREAS = {
  queue: ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"],
  tickets: ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"],
  newTicket: ["REVIEWER", "SPECIALIST", "ADMIN"],
  runAgent: ["REVIEWER", "SPECIALIST", "ADMIN"],
  approve: ["REVIEWER", "SPECIALIST", "ADMIN"],
  /** Claiming, assigning and unassigning tickets. Leads hand work out; only roles that work tickets
   * (the approve area) may hold one. */
  assign: ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"],
  ledger: ["SPECIALIST", "LEAD", "ADMIN"],
  audit: ["LEAD", "ADMIN"],
  evals: ["LEAD", "ADMIN"],
  /** Marking agent runs correct or wrong, the annotation queue, saving an episode from a run. Promoting
   * an episode into the team dataset is the evals area's. */
  annotate: ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"],
  autonomy: ["LEAD", "ADMIN"],
  admin: ["ADMIN"],
  /** The signed-in person's own account: their sessions ("sign out everywhere"). */
  account: ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"],
  /** Policy documents: reading, importing, editing drafts and sending them to review. A draft is never
   * evidence, so anyone may write one; publishing and retiring need the role named by the setting
   * `documents.publishRole` (roleAtLeast), and a person other than the author (lib/documents). */
  documents: ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"],
  /** The pages' writing of policy documents: importing, editing a draft, writing a new version and
   * sending it to review – the authors. Publishing, withdrawing someone else's version and retiring
   * stay open to the documents area: the setting decides them, in lib/documents. */
  writeDocuments: ["SPECIALIST", "LEAD", "ADMIN"],
} as const satisfies Record<string, readonly Role[]>;

export type Area = keyof typeof AREAS;

export function mayUse(role: Role, area: Area): boolean {
  return (AREAS[area] as readonly Role[]).includes(role);
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

// Reviewers decide refunds below the specialist threshold, specialists and admins any.
const APPROVAL_RANK: Record<Role, number> = { LEAD: 0, REVIEWER: 1, SPECIALIST: 2, ADMIN: 3 };

/** Whether a decider of `role` satisfies an approval that requires `required`: a role that may
 * approve at all (leads read approvals but never decide them), ranked at or above it. */
export function roleSatisfies(role: Role, required: Role): boolean {
  return mayUse(role, "approve") && APPROVAL_RANK[role] >= APPROVAL_RANK[required];
}

/** Of two required roles, the one fewer people satisfy: a lowered refund keeps the stronger of its own and its original's. */
export function strongerRole(a: Role, b: Role): Role {
  return APPROVAL_RANK[b] > APPROVAL_RANK[a] ? b : a;
}

/** Seniority, for a setting that names the least role allowed to do something (`documents.publishRole`).
 * Not the approval order above: there a lead decides nothing, here a lead ranks above a specialist. */
export const ROLE_RANK: Record<Role, number> = { REVIEWER: 0, SPECIALIST: 1, LEAD: 2, ADMIN: 3 };

/** Whether `role` is `minimum` or ranks above it (ROLE_RANK). */
export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[minimum];
}
