import { Auth, createActionURL } from "@auth/core";
import { encode, type JWT } from "next-auth/jwt";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { logger } from "../observability/logger";
import { authConfig } from "./auth.config";
import { needsReissue, sessionCookieName, sessionOf, sessionToken, sessionUserOf, type TCookieSession } from "./session-cookie";
import { SESSION_MAX_AGE_SECONDS, SESSION_REISSUE_SECONDS } from "./session-lifetime";

const SECRET = "session-cookie-test-secret-0123456789abcdef";
const NAME = "authjs.session-token";
const SECURE_NAME = `__Secure-${NAME}`;
const CLAIMS = {
  sub: "5f0c6b1e-8d2a-4c3b-9e1f-0a1b2c3d4e5f",
  role: "LEAD",
  sv: 3,
  sid: "0b6d1f3a-2c4e-4a5b-8c7d-9e0f1a2b3c4d",
  name: "Lea Lead",
  email: "lead@example.com",
} satisfies JWT;
const USER = { id: CLAIMS.sub, role: "LEAD", sessionVersion: 3, sessionId: CLAIMS.sid };

const mint = (token: JWT = CLAIMS, options: { salt?: string; secret?: string; maxAge?: number } = {}) =>
  encode({ token, salt: options.salt ?? NAME, secret: options.secret ?? SECRET, maxAge: options.maxAge ?? 3_600 });

function request(cookie: string | null, proto: string | null = "http"): Headers {
  const headers = new Headers({ host: "127.0.0.1:3000" });
  if (proto) headers.set("x-forwarded-proto", proto);
  if (cookie !== null) headers.set("cookie", cookie);
  return headers;
}

/**
 * What next-auth's auth() answers in a server render for these headers (its getSession), reduced to
 * the session's user: with next-auth's own decode, or with the configuration's (as the proxy reads).
 */
async function nextAuthUser(headers: Headers, decode: "next-auth" | "configured") {
  const url = createActionURL("session", headers.get("x-forwarded-proto") ?? "https", headers, process.env, { basePath: "/api/auth" });
  const config = { ...authConfig, secret: SECRET, basePath: "/api/auth", ...(decode === "next-auth" ? { jwt: undefined } : {}) };
  const response = await Auth(new Request(url, { headers: { cookie: headers.get("cookie") ?? "" } }), config);
  if (!response.ok) return null;
  const user = ((await response.json()) as { user?: { id?: string; role?: string; sessionVersion?: number; sessionId?: string } } | null)
    ?.user;
  return user?.id ? { id: user.id, role: user.role, sessionVersion: user.sessionVersion, sessionId: user.sessionId } : null;
}

/** The three readings of the same request – ours, next-auth's, the proxy's – which must agree. */
async function read(headers: Headers) {
  const ours = await sessionUserOf({ headers, secret: SECRET });
  expect(ours).toEqual(await nextAuthUser(headers, "next-auth"));
  expect(ours).toEqual(await nextAuthUser(headers, "configured"));
  return ours;
}

beforeEach(() => {
  vi.spyOn(logger, "warn").mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("the session cookie, read as next-auth reads it", () => {
  it("names the user of a valid token, and no one without a cookie", async () => {
    expect(await read(request(`${NAME}=${await mint()}`))).toEqual(USER);
    expect(await read(request(null))).toBeNull();
    expect(await read(request("other=1"))).toBeNull();
  });

  it("reads the __Secure- cookie over https, and over https only", async () => {
    const secure = await mint(CLAIMS, { salt: SECURE_NAME });
    expect(await read(request(`${SECURE_NAME}=${secure}`, "https"))).toEqual(USER);
    expect(await read(request(`${SECURE_NAME}=${secure}`, null))).toEqual(USER); // no forwarded protocol: https
    expect(await read(request(`${NAME}=${await mint()}`, "https"))).toBeNull();
    expect(await read(request(`${SECURE_NAME}=${secure}`, "http"))).toBeNull();
  });

  it("takes the protocol from AUTH_URL when it is set", async () => {
    vi.stubEnv("AUTH_URL", "https://console.example.com");
    expect(sessionCookieName(request(null, "http"))).toBe(SECURE_NAME);
    expect(await read(request(`${SECURE_NAME}=${await mint(CLAIMS, { salt: SECURE_NAME })}`, "http"))).toEqual(USER);
  });

  it("joins a token split over chunks, in chunk order", async () => {
    const token = await mint();
    const cut = Math.floor(token.length / 2);
    expect(sessionToken(`${NAME}.1=${token.slice(cut)}; ${NAME}.0=${token.slice(0, cut)}`, NAME)).toBe(token);
    expect(await read(request(`${NAME}.1=${token.slice(cut)}; ${NAME}.0=${token.slice(0, cut)}`))).toEqual(USER);
  });

  it("takes the first of a repeated cookie", async () => {
    const token = await mint();
    expect(await read(request(`${NAME}=${token}; ${NAME}=garbage`))).toEqual(USER);
    expect(await read(request(`${NAME}=garbage; ${NAME}=${token}`))).toBeNull();
  });

  it("refuses a token under another secret, a tampered one, and one without the claims", async () => {
    expect(await read(request(`${NAME}=${await mint(CLAIMS, { secret: "another-secret-0123456789abcdef0123456789" })}`))).toBeNull();
    const token = await mint();
    const tampered = token.slice(0, -3) + (token.endsWith("AAA") ? "BBB" : "AAA");
    expect(await read(request(`${NAME}=${tampered}`))).toBeNull();
    expect(await read(request(`${NAME}=${await mint({ sub: CLAIMS.sub, sv: 3 })}`))).toBeNull();
    expect(await read(request(`${NAME}=${await mint({ ...CLAIMS, sv: "3" as unknown as number })}`))).toBeNull();
    // A token minted before sessions had ids: its holder signs in again.
    expect(await read(request(`${NAME}=${await mint({ sub: CLAIMS.sub, role: CLAIMS.role, sv: CLAIMS.sv })}`))).toBeNull();
    expect(logger.warn).toHaveBeenCalledWith({ type: "JWTSessionError", code: undefined }, "auth: JWTSessionError");
  });

  it("accepts a token up to 15 seconds past its expiry, not later", async () => {
    expect(await read(request(`${NAME}=${await mint(CLAIMS, { maxAge: -5 })}`))).toEqual(USER);
    expect(await read(request(`${NAME}=${await mint(CLAIMS, { maxAge: -60 })}`))).toBeNull();
  });

  it("refuses a remembered token once it has expired, as next-auth does", async () => {
    const headers = request(`${NAME}=${await mint(CLAIMS, { maxAge: 60 })}`);
    expect(await read(headers)).toEqual(USER);
    expect(await read(headers)).toEqual(USER);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 80_000 });
    expect(await read(headers)).toBeNull();
  });
});

describe("the proxy's reissue of the session cookie", () => {
  const NOW = 1_900_000_000;
  const session = (issuedAt: number | null) => ({ user: USER as TCookieSession["user"], issuedAt });

  it("passes a token younger than the reissue interval as it is, and reissues one that old or older", () => {
    expect(needsReissue(session(NOW), NOW)).toBe(false);
    expect(needsReissue(session(NOW - SESSION_REISSUE_SECONDS + 1), NOW)).toBe(false);
    expect(needsReissue(session(NOW - SESSION_REISSUE_SECONDS), NOW)).toBe(true);
    expect(needsReissue(session(NOW - SESSION_MAX_AGE_SECONDS), NOW)).toBe(true);
  });

  it("hands next-auth a request with no session, a token without its issue time, and one issued in the future", () => {
    expect(needsReissue(null, NOW)).toBe(true);
    expect(needsReissue(session(null), NOW)).toBe(true);
    expect(needsReissue(session(NOW + 60), NOW)).toBe(true);
  });

  it("reads the issue time next-auth wrote into the token", async () => {
    vi.useFakeTimers({ now: NOW * 1000, toFake: ["Date"] });
    const read = await sessionOf({ headers: request(`${NAME}=${await mint()}`), secret: SECRET });
    expect(read).toEqual({ user: USER, issuedAt: NOW });
    expect(await sessionOf({ headers: request(`${NAME}=garbage`), secret: SECRET, quiet: true })).toBeNull();
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
