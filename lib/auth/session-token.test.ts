import { decode, encode, type JWT } from "next-auth/jwt";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decodeSessionToken } from "./session-token";

// Counts next-auth's decryptions.
const decrypted = vi.hoisted(() => ({ count: 0 }));
vi.mock("next-auth/jwt", async (original) => {
  const jwt = await original<typeof import("next-auth/jwt")>();
  return {
    ...jwt,
    decode: (params: Parameters<typeof jwt.decode>[0]) => {
      decrypted.count++;
      return jwt.decode(params);
    },
  };
});

const SECRET = "session-token-test-secret-0123456789abcdef";
const OTHER_SECRET = "another-secret-0123456789abcdef0123456789";
const SALT = "authjs.session-token";
const CLAIMS = { sub: "5f0c6b1e-8d2a-4c3b-9e1f-0a1b2c3d4e5f", role: "LEAD", sv: 3 } satisfies JWT;
const mint = (maxAge = 3_600, claims: JWT = CLAIMS) => encode({ token: claims, salt: SALT, secret: SECRET, maxAge });

afterEach(() => {
  vi.useRealTimers();
});

describe("decodeSessionToken", () => {
  it("answers as next-auth's decode does, decrypting a token once", async () => {
    const token = await mint();
    const before = decrypted.count;
    const first = await decodeSessionToken({ token, secret: SECRET, salt: SALT });
    expect(first).toEqual(await decode({ token, secret: SECRET, salt: SALT }));
    expect(await decodeSessionToken({ token, secret: SECRET, salt: SALT })).toEqual(first);
    expect(decrypted.count - before).toBe(2); // ours once, the reference once
    expect(first).toMatchObject(CLAIMS);
  });

  it("gives each caller its own payload", async () => {
    const token = await mint();
    const first = (await decodeSessionToken({ token, secret: SECRET, salt: SALT }))!;
    first.exp = 0;
    first.role = "ADMIN";
    expect(await decodeSessionToken({ token, secret: SECRET, salt: SALT })).toMatchObject({ role: "LEAD", exp: expect.any(Number) });
  });

  it("refuses a remembered token once it has expired, with next-auth's 15 seconds of tolerance", async () => {
    const token = await mint(60);
    expect(await decodeSessionToken({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 70_000 });
    expect(await decodeSessionToken({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
    vi.setSystemTime(Date.now() + 10_000);
    await expect(decodeSessionToken({ token, secret: SECRET, salt: SALT })).rejects.toThrow(/exp/);
    await expect(decode({ token, secret: SECRET, salt: SALT })).rejects.toThrow(/exp/);
  });

  it("does not answer for another secret or salt, or for a token that does not decrypt", async () => {
    const token = await mint();
    expect(await decodeSessionToken({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
    await expect(decodeSessionToken({ token, secret: OTHER_SECRET, salt: SALT })).rejects.toThrow();
    await expect(decodeSessionToken({ token, secret: SECRET, salt: `__Secure-${SALT}` })).rejects.toThrow();
    await expect(decodeSessionToken({ token: `${token}x`, secret: SECRET, salt: SALT })).rejects.toThrow();
    expect(await decodeSessionToken({ token: "", secret: SECRET, salt: SALT })).toBeNull();
  });
});
