// OpenID Connect sign-in's settings, in two halves. The connection (issuer, client id and secret, the
// group claim and the groups-to-roles map) is deployment configuration: environment variables, read
// once (lib/env.ts). What the admin decides (require SSO for everyone but one break-glass admin,
// create accounts on first sign-in and with which role) lives in the database, so every instance
// agrees, and each change is audited (update-sso-policy.ts).
import { z } from "zod";
import { ROLES, ROLE_RANK, type Role } from "../contracts/roles";
import { db as defaultDb, type Db, type DbTx } from "../db";
import type { TEnv } from "../env";

export interface TOidcConnection {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The sign-in button's provider name. */
  name: string;
  roleClaim: string;
  /** Group name → role; empty: the provider says nothing about roles (an account keeps its own). */
  roleMap: ReadonlyMap<string, Role>;
}

/** `group=ROLE,group=ROLE` → a map; a role that is not one of ROLES is an error naming the pair. */
export function parseRoleMap(text: string | undefined): Map<string, Role> {
  const map = new Map<string, Role>();
  for (const pair of (text ?? "").split(",").map((p) => p.trim())) {
    if (!pair) continue;
    const at = pair.lastIndexOf("=");
    const group = pair.slice(0, at).trim();
    const role = pair
      .slice(at + 1)
      .trim()
      .toUpperCase();
    if (at <= 0 || !group || !(ROLES as readonly string[]).includes(role)) {
      throw new Error(`OIDC_ROLE_MAP: "${pair}" must be group=ROLE with ROLE one of ${ROLES.join(", ")}`);
    }
    map.set(group, role as Role);
  }
  return map;
}

/** The connection from the environment, or null when OpenID Connect is not configured (OIDC_ISSUER unset). */
export function oidcConnection(
  e: Pick<TEnv, "OIDC_ISSUER" | "OIDC_CLIENT_ID" | "OIDC_CLIENT_SECRET" | "OIDC_NAME" | "OIDC_ROLE_CLAIM" | "OIDC_ROLE_MAP">,
): TOidcConnection | null {
  if (!e.OIDC_ISSUER) return null;
  if (!e.OIDC_CLIENT_ID || !e.OIDC_CLIENT_SECRET)
    throw new Error("OIDC_ISSUER is set: OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set too");
  return {
    issuer: e.OIDC_ISSUER,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    name: e.OIDC_NAME,
    roleClaim: e.OIDC_ROLE_CLAIM,
    roleMap: parseRoleMap(e.OIDC_ROLE_MAP),
  };
}

/**
 * The role a person's groups give: the highest mapped one. `undefined` when the map is empty (roles
 * are not the provider's to say); `null` when the map is set and none of the groups is in it.
 */
export function roleFromGroups(connection: Pick<TOidcConnection, "roleMap">, groups: readonly string[]): Role | null | undefined {
  if (connection.roleMap.size === 0) return undefined;
  let best: Role | null = null;
  for (const group of groups) {
    const role = connection.roleMap.get(group);
    if (role && (best === null || ROLE_RANK[role] > ROLE_RANK[best])) best = role;
  }
  return best;
}

/** The groups claim read leniently: a list of strings, or one string; anything else is no groups. */
export function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((g): g is string => typeof g === "string") : [];
}

export const SSO_POLICY_KEY = "signIn.sso";

export const ZSsoPolicy = z.strictObject({
  /** Password sign-in refused for everyone but the break-glass admin. */
  requireSso: z.boolean(),
  /** The one admin whose password still works when SSO is required. */
  breakGlassUserId: z.uuid().nullable(),
  /** A verified email with no account gets one at its first sign-in, with defaultRole (unless the groups give one). */
  createOnFirstSignIn: z.boolean(),
  defaultRole: z.enum(ROLES),
});
export type TSsoPolicy = z.infer<typeof ZSsoPolicy>;

export const DEFAULT_SSO_POLICY: TSsoPolicy = {
  requireSso: false,
  breakGlassUserId: null,
  createOnFirstSignIn: false,
  defaultRole: "REVIEWER",
};

/** The admin's SSO policy in force; a stored value of the wrong shape is an error, never replaced. */
export async function loadSsoPolicy(client: Db | DbTx = defaultDb()): Promise<TSsoPolicy> {
  const row = await client.setting.findUnique({ where: { key: SSO_POLICY_KEY } });
  return row ? ZSsoPolicy.parse(row.value) : DEFAULT_SSO_POLICY;
}
