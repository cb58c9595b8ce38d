// Sign-in through the identity provider, after Auth.js has checked what the protocol guarantees (the
// issuer, the state, PKCE, the nonce, the ID token's signature and audience): who the person is here.
// A person is found by the provider's subject bound at their first sign-in, or else by a verified
// email, which binds it; an account is created only when the admin allows it. Their role follows the
// provider's groups at every sign-in, when a map is configured: a person removed from a group loses
// its role the next time they sign in. Then the session opens as a password's does (open-session.ts).
import "server-only";
import { randomBytes } from "node:crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import type { Role } from "../contracts/roles";
import { db as defaultDb, isUniqueViolation, type DbTx } from "../db";
import { groupsOf, loadSsoPolicy, roleFromGroups, type TOidcConnection, type TSsoPolicy } from "./oidc-settings";
import { openSession, type TVerifiedUser } from "./open-session";
import { hashPassword } from "./password";
import { normalizeEmail } from "./throttle";

/** Why a sign-in through the provider was refused (shown on the sign-in page by its code). */
export type TOidcRefusal =
  /** The provider does not vouch for the email (email_verified is not true), or gave none. */
  | "email_unverified"
  /** No account has this subject or email, and the admin does not create accounts on first sign-in. */
  | "no_account"
  /** The email's account is bound to another of the provider's subjects. */
  | "subject_mismatch"
  /** A groups-to-roles map is configured and none of the person's groups is in it. */
  | "no_mapped_role"
  /** The account is deactivated here. */
  | "inactive";

export type TOidcOutcome = { status: "ok"; user: TVerifiedUser } | { status: "refused"; code: TOidcRefusal };

interface TAccount {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  sessionVersion: number;
  oidcSubject: string | null;
}

const ACCOUNT = { id: true, email: true, name: true, role: true, active: true, sessionVersion: true, oidcSubject: true } as const;

export async function signInWithOidc(input: {
  claims: Record<string, unknown>;
  connection: TOidcConnection;
  address?: string | null;
  userAgent?: string | null;
  now: Date;
}): Promise<TOidcOutcome> {
  const sub = typeof input.claims.sub === "string" ? input.claims.sub : "";
  const email = typeof input.claims.email === "string" ? normalizeEmail(input.claims.email) : "";
  // Only `true` counts: a missing claim or the string "true" is not the provider vouching for it.
  if (!sub || !email || input.claims.email_verified !== true) return { status: "refused", code: "email_unverified" };
  const mapped = roleFromGroups(input.connection, groupsOf(input.claims, input.connection.roleClaim));
  if (mapped === null) return { status: "refused", code: "no_mapped_role" };

  const found = await defaultDb().$transaction(async (tx) => {
    const policy = await loadSsoPolicy(tx);
    const account = await findAccount(tx, sub, email);
    if (account === "subject_mismatch") return account;
    if (!account)
      return policy.createOnFirstSignIn ? createAccount(tx, { sub, email, claims: input.claims, role: mapped, policy }) : "no_account";
    if (!account.active) return "inactive";
    // The break-glass admin's role is not the provider's to lower: they are the admin who signs in
    // when the provider cannot, and a group taken away there must not leave the app without one.
    const breakGlass = policy.requireSso && policy.breakGlassUserId === account.id;
    return bindAndMap(tx, account, sub, breakGlass ? undefined : mapped);
  });
  if (typeof found === "string") return { status: "refused", code: found };
  const via = { via: "oidc", issuer: input.connection.issuer };
  return { status: "ok", user: await openSession(found, { address: input.address, userAgent: input.userAgent, now: input.now, via }) };
}

/** By the bound subject first; else by email, unless that account is bound to another subject. */
async function findAccount(tx: DbTx, sub: string, email: string): Promise<TAccount | "subject_mismatch" | null> {
  const bound = await tx.user.findUnique({ where: { oidcSubject: sub }, select: ACCOUNT });
  if (bound) return bound;
  const byEmail = await tx.user.findFirst({ where: { email: { equals: email, mode: "insensitive" } }, select: ACCOUNT });
  if (byEmail?.oidcSubject) return "subject_mismatch";
  return byEmail;
}

/** Binds the subject at the first sign-in, and moves the role to the groups' one; both audited. */
async function bindAndMap(tx: DbTx, account: TAccount, sub: string, mapped: Role | undefined): Promise<TAccount> {
  const role = mapped ?? account.role;
  if (account.oidcSubject === sub && account.role === role) return account;
  await tx.user.update({ where: { id: account.id }, data: { oidcSubject: sub, role } });
  if (account.oidcSubject !== sub) {
    await recordAuditEvent(tx, {
      actorType: "system",
      action: "user.identity_bound",
      subjectType: "user",
      subjectId: account.id,
      inputs: { via: "oidc" },
    });
  }
  if (account.role !== role) {
    await recordAuditEvent(tx, {
      actorType: "system",
      action: "user.role_changed",
      subjectType: "user",
      subjectId: account.id,
      inputs: { from: account.role, to: role, via: "oidc_groups" },
    });
  }
  return { ...account, oidcSubject: sub, role };
}

async function createAccount(
  tx: DbTx,
  input: { sub: string; email: string; claims: Record<string, unknown>; role: Role | undefined; policy: TSsoPolicy },
): Promise<TAccount> {
  const name = typeof input.claims.name === "string" && input.claims.name.trim() ? input.claims.name.trim().slice(0, 120) : input.email;
  const role = input.role ?? input.policy.defaultRole;
  // A password nobody knows: the account signs in through the provider only (until an admin sends a link).
  const passwordHash = await hashPassword(randomBytes(32).toString("base64url"));
  try {
    const user = await tx.user.create({
      data: { email: input.email, name, role, passwordHash, passwordPending: true, oidcSubject: input.sub },
      select: ACCOUNT,
    });
    await recordAuditEvent(tx, {
      actorType: "system",
      action: "user.created_at_sign_in",
      subjectType: "user",
      subjectId: user.id,
      inputs: { email: user.email, name, role, via: "oidc" },
    });
    return user;
  } catch (error) {
    // Two first sign-ins of one person at once: the other created it; this one signs in next time.
    if (isUniqueViolation(error)) throw new Error("oidc: the account was created by a concurrent sign-in; sign in again");
    throw error;
  }
}
