// The light half of the next-auth configuration: no database, no password hashing. proxy.ts uses it
// to read the session cookie on every request; lib/auth/auth.ts adds the Credentials provider.
// (proxy.ts runs on the Node.js runtime in Next 16, but it stays cheap: a cookie decode, no query.)
import type { NextAuthConfig } from "next-auth";
import type { JWT } from "next-auth/jwt";
import { authSecret } from "../env";
import { errorFields, logger } from "../observability/logger";
import { SIGN_IN_PATH } from "./public-paths";
import { decodeSessionToken } from "./session-token";
import { isRole, type Role } from "../contracts/roles";
import { SESSION_MAX_AGE_SECONDS, SESSION_REISSUE_SECONDS } from "./session-lifetime";

// Refusals the app expects (a wrong password, a stale or foreign cookie) are one line each; anything
// else keeps its stack.
const QUIET_ERRORS = new Set(["CredentialsSignin", "JWTSessionError"]);

export const authLogger: NonNullable<NextAuthConfig["logger"]> = {
  error(error) {
    const type = (error as { type?: string }).type ?? error.name;
    if (QUIET_ERRORS.has(type)) {
      const code = (error as { code?: string }).code;
      logger.warn({ type, code }, `auth: ${type}${code ? ` (${code})` : ""}`);
      return;
    }
    // Auth.js wraps what went wrong (a refused code exchange, a callback that threw) as the cause.
    const cause = (error as { cause?: { err?: unknown } | unknown }).cause;
    const inner = cause && typeof cause === "object" && "err" in cause ? cause.err : cause;
    logger.error(
      {
        ...errorFields(error),
        ...(inner ? { cause: inner instanceof Error ? { message: inner.message, stack: inner.stack } : inner } : {}),
      },
      "auth: error",
    );
  },
  warn(code) {
    logger.warn({ code }, `auth: warning ${code}`);
  },
  debug() {},
};

export interface TTokenUser {
  id: string;
  role: Role;
  sessionVersion: number;
  /** The UserSession row the token was minted with; the server refuses the token once it is revoked. */
  sessionId: string;
}

/**
 * What a session says of its user, from the token: id, role, session version and session id, or null
 * when one is missing. A token minted before sessions had ids carries no `sid`: it counts as signed
 * out, and its holder signs in again.
 */
export function tokenUser(token: JWT): TTokenUser | null {
  return token.sub && isRole(token.role) && typeof token.sv === "number" && typeof token.sid === "string" && token.sid
    ? { id: token.sub, role: token.role, sessionVersion: token.sv, sessionId: token.sid }
    : null;
}

export const authConfig = {
  pages: { signIn: SIGN_IN_PATH },
  // updateAge means nothing to next-auth's JWT sessions (its session endpoint reissues the token on
  // every call); the proxy holds the cookie to it instead (needsReissue in session-cookie.ts).
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: SESSION_REISSUE_SECONDS },
  // next-auth's own decode, once per token (session-token.ts): the proxy reads the same cookie on
  // every request. Encoding is next-auth's, unchanged.
  jwt: { decode: decodeSessionToken },
  // Self-hosted behind whatever proxy the operator has: take the host from the request.
  trustHost: true,
  logger: authLogger,
  providers: [],
  callbacks: {
    jwt({ token, user }) {
      // `user` is present only at sign-in: copy what the session needs into the token, once.
      if (user) {
        token.sub = user.id;
        token.role = user.role;
        token.sv = user.sessionVersion;
        token.sid = user.sessionId;
      }
      return token;
    },
    session({ session, token }) {
      const user = tokenUser(token);
      if (user) session.user = { ...session.user, ...user };
      return session;
    },
  },
} satisfies NextAuthConfig;

/** The light configuration with its secret. A function, so the secret is read on first use, not at build. */
export function lightAuthConfig(): NextAuthConfig {
  return { ...authConfig, secret: authSecret() };
}
