// Roles and what each may open. One table, used by the navigation, every page, action and route,
// and the access tests.
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
  newTicket: ["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"],
  runAgent: ["REVIEWER", "SPECIALIST", "ADMIN"],
  approve: ["REVIEWER", "SPECIALIST", "ADMIN"],
  ledger: ["SPECIALIST", "LEAD", "ADMIN"],
  audit: ["LEAD", "ADMIN"],
  evals: ["LEAD", "ADMIN"],
  autonomy: ["LEAD", "ADMIN"],
  admin: ["ADMIN"],
} as const satisfies Record<string, readonly Role[]>;

export type Area = keyof typeof AREAS;

export function mayUse(role: Role, area: Area): boolean {
  return (AREAS[area] as readonly Role[]).includes(role);
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}
