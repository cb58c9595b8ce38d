// Who may do what, as pure functions over the AREAS table: shared by requireRole, authedAction,
// authedRoute and the navigation.
import { AREAS, type Area, type Role } from "../contracts/roles";

/** An area of the app (AREAS decides who may use it) or an explicit list of roles. */
export type TAccess = Area | readonly Role[];

export function allowedRoles(access: TAccess): readonly Role[] {
  return typeof access === "string" ? AREAS[access] : access;
}

export function isAllowed(role: Role, access: TAccess): boolean {
  return allowedRoles(access).includes(role);
}

export type TAccessDecision = "ok" | "unauthenticated" | "forbidden";

export function accessDecision(user: { role: Role } | null, access: TAccess): TAccessDecision {
  if (!user) return "unauthenticated";
  return isAllowed(user.role, access) ? "ok" : "forbidden";
}
