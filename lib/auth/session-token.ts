// next-auth's decode of a session token, done once per token. Decrypting is a key derivation, a
// thumbprint, a MAC and a cipher, and every signed-in request decrypts the same cookie (in the proxy,
// and again in the page): a token that decrypted is remembered by its exact text, secret and salt, and
// its times are checked again on every read, as jose checks them, so an expired token is refused as it
// would be without the memory. A token that does not decrypt is not remembered.
import { decode, type JWT, type JWTDecodeParams } from "next-auth/jwt";

/** @auth/core's decode accepts a token this many seconds past its expiry (and before its nbf). */
const CLOCK_TOLERANCE_SECONDS = 15;
/** Tokens kept, the oldest dropped first: about one per person signed in on this instance. */
const REMEMBERED_TOKENS = 1_000;

interface TRemembered {
  payload: JWT;
  exp?: number;
  nbf?: number;
}

// On globalThis: a bundler may load this module once per server layer (the proxy, the pages).
const remembered: Map<string, TRemembered> = ((
  globalThis as unknown as { __countersignSessionTokens?: Map<string, TRemembered> }
).__countersignSessionTokens ??= new Map());

const numeric = (value: unknown) => (typeof value === "number" ? value : undefined);

function inTime(token: TRemembered, nowSeconds: number): boolean {
  if (token.nbf !== undefined && token.nbf > nowSeconds + CLOCK_TOLERANCE_SECONDS) return false;
  if (token.exp !== undefined && token.exp <= nowSeconds - CLOCK_TOLERANCE_SECONDS) return false;
  return true;
}

/** next-auth's decode (the JWT option of the same name), remembered; each caller gets its own copy of the payload. */
export async function decodeSessionToken(params: JWTDecodeParams): Promise<JWT | null> {
  if (!params.token) return decode(params);
  const key = JSON.stringify([params.token, params.salt, params.secret]);
  const known = remembered.get(key);
  if (known && inTime(known, Math.floor(Date.now() / 1000))) return structuredClone(known.payload);
  remembered.delete(key);
  const payload = await decode(params);
  if (!payload) return payload;
  if (remembered.size >= REMEMBERED_TOKENS) remembered.delete(remembered.keys().next().value!);
  remembered.set(key, { payload: structuredClone(payload), exp: numeric(payload.exp), nbf: numeric(payload.nbf) });
  return payload;
}
