// The session a request carries, read as next-auth's auth() reads it in a server render: the same
// cookie (its __Secure- name over https, chunks joined), the same decryption and expiry check, the
// same claims. Not through next-auth's session endpoint, which for every call also encrypts a
// refreshed token and makes a CSRF token; a server render throws both away (the proxy's response is
// the one that refreshes the cookie).
import { authLogger, tokenUser, type TTokenUser } from "./auth.config";
import { decodeSessionToken } from "./session-token";
import { SESSION_REISSUE_SECONDS } from "./session-lifetime";

const SESSION_COOKIE = "authjs.session-token";

/**
 * The session cookie's name for this request, as next-auth picks it: __Secure- prefixed when the
 * site's URL is https – AUTH_URL (or NEXTAUTH_URL) when set, else the forwarded protocol, https when
 * there is none.
 */
export function sessionCookieName(headers: Headers, env: Record<string, string | undefined> = process.env): string {
  const envUrl = env.AUTH_URL ?? env.NEXTAUTH_URL;
  let url: URL;
  if (envUrl) url = new URL(envUrl);
  else {
    const protocol = headers.get("x-forwarded-proto") ?? "https";
    url = new URL(`${protocol.endsWith(":") ? protocol : `${protocol}:`}//${headers.get("x-forwarded-host") ?? headers.get("host")}`);
  }
  return url.protocol === "https:" ? `__Secure-${SESSION_COOKIE}` : SESSION_COOKIE;
}

/** A cookie header's pairs, the first of a repeated name winning, values %-decoded where they can be. */
function parseCookies(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq === -1) continue;
    const name = pair.slice(0, eq).replace(/^[ \t]+|[ \t]+$/g, "");
    if (!name || cookies.has(name)) continue;
    const raw = pair.slice(eq + 1).replace(/^[ \t]+|[ \t]+$/g, "");
    let value = raw;
    if (raw.includes("%")) {
      try {
        value = decodeURIComponent(raw);
      } catch {
        value = raw;
      }
    }
    cookies.set(name, value);
  }
  return cookies;
}

/** The token a cookie header carries under `name`: the cookie itself, or its chunks name.0, name.1, … joined in order. */
export function sessionToken(cookieHeader: string, name: string): string {
  const chunks = [...parseCookies(cookieHeader)].filter(([key, value]) => key.startsWith(name) && value);
  const suffix = (key: string) => parseInt(key.split(".").pop() || "0");
  return chunks
    .sort(([a], [b]) => suffix(a) - suffix(b))
    .map(([, value]) => value)
    .join("");
}

/** What a request's session cookie says: its user, and when its token was issued (seconds since the epoch). */
export interface TCookieSession {
  user: TTokenUser;
  /** The token's `iat`; null when it carries none. */
  issuedAt: number | null;
}

/**
 * The session a request's cookie carries, or null when there is no cookie or it does not decrypt,
 * has expired or lacks the claims. Whether its user still counts is the caller's to check against
 * the User row. `quiet`: a cookie that does not decrypt is not logged (the proxy hands it to
 * next-auth, which logs it).
 */
export async function sessionOf(request: {
  headers: Headers;
  secret: string;
  env?: Record<string, string | undefined>;
  quiet?: boolean;
}): Promise<TCookieSession | null> {
  const salt = sessionCookieName(request.headers, request.env);
  const token = sessionToken(request.headers.get("cookie") ?? "", salt);
  if (!token) return null;
  try {
    const payload = await decodeSessionToken({ token, secret: request.secret, salt });
    const user = payload ? tokenUser(payload) : null;
    return user ? { user, issuedAt: typeof payload?.iat === "number" ? payload.iat : null } : null;
  } catch (error) {
    if (request.quiet) return null;
    // One quiet line, as next-auth's session endpoint logs it.
    const refused = new Error("The session cookie does not decrypt or has expired", { cause: error });
    refused.name = "JWTSessionError";
    authLogger.error?.(refused);
    return null;
  }
}

/** The user a request's session cookie names (id, role, session version, session id), or null (see sessionOf). */
export async function sessionUserOf(request: {
  headers: Headers;
  secret: string;
  env?: Record<string, string | undefined>;
}): Promise<TTokenUser | null> {
  return (await sessionOf(request))?.user ?? null;
}

/**
 * Whether the proxy must let next-auth reissue this session's cookie (proxy.ts): when it names no
 * one (next-auth then answers for it, clearing what does not decrypt), when its token says nothing
 * of its age or claims a time ahead of ours, and when it is SESSION_REISSUE_SECONDS old or older.
 */
export function needsReissue(session: TCookieSession | null, nowSeconds: number): boolean {
  if (!session || session.issuedAt === null || session.issuedAt > nowSeconds) return true;
  return nowSeconds - session.issuedAt >= SESSION_REISSUE_SECONDS;
}
