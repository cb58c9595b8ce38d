// The signed-in user, as every page, action and route sees it. The JWT says who signed in; the rows
// say whether that still counts (load-session-user.ts): a revoked, missing or idle session, an
// inactive user, or a token minted before the user's sessionVersion was bumped, is signed out. The
// role comes from the row too, so a role change takes effect on the next request rather than at the
// next sign-in.
import "server-only";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import { z } from "zod";
import { authSecret } from "../env";
import { isAllowed, type TAccess } from "./access";
import { loadSessionUser, type TSessionClaims, type TSessionUser } from "./load-session-user";
import { SIGN_IN_PATH } from "./public-paths";
import { sessionUserOf } from "./session-cookie";

export type { TSessionUser };

const ZClaims = z.object({ id: z.uuid(), sessionVersion: z.number().int(), sessionId: z.uuid() });

/** The id, session version and session id a session carries, or null when it lacks one (or carries garbage). */
export function sessionClaims(session: unknown): TSessionClaims | null {
  const user = (session as { user?: unknown } | null | undefined)?.user;
  const parsed = ZClaims.safeParse(user);
  return parsed.success ? parsed.data : null;
}

/**
 * The signed-in user, re-checked against the database; null when signed out or revoked. Once per
 * request. The cookie is read as next-auth's auth() reads it (session-cookie.ts), without its
 * session endpoint's refreshed token and CSRF token, which nothing here could send back.
 */
export const currentUser = cache(async (): Promise<TSessionUser | null> => {
  const claims = sessionClaims({ user: await sessionUserOf({ headers: await headers(), secret: authSecret() }) });
  if (!claims) return null;
  return loadSessionUser({ claims, now: new Date() });
});

/** For pages: the signed-in user, or a redirect to /signin. */
export async function requireUser(): Promise<TSessionUser> {
  const user = await currentUser();
  if (!user) redirect(SIGN_IN_PATH);
  return user;
}

/**
 * For pages: the signed-in user if their role may use `access` (an area from AREAS, or a list of
 * roles). Signed out → redirect to /signin; wrong role → Next's forbidden(), which renders
 * app/forbidden.tsx with status 403. Call it at the top of the page, before anything streams.
 */
export async function requireRole(access: TAccess): Promise<TSessionUser> {
  const user = await requireUser();
  if (!isAllowed(user.role, access)) forbidden();
  return user;
}
