// The sign-in limits as an attacker meets them: next-auth's credentials endpoint behind a real HTTP
// server, with the request entry hook the production server installs (lib/http/forwarded.ts), so the
// address the limits count is the one the server settled, not one a client wrote.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../testing/db";
import { startAppServer, type TAppServer } from "../../testing/app-server";
import { attemptSignIn, csrfFor } from "../../testing/sign-in";
import { DEMO_PASSWORD } from "../../prisma/seed/demo";

const servers: TAppServer[] = [];
const databases: TestDb[] = [];

/** A server of its own, on a database of its own (a PostgreSQL clone, or an in-memory PGlite). */
async function server(env: Record<string, string | undefined>): Promise<TAppServer> {
  const database = process.env.DATABASE_URL ? await createTestDb() : undefined;
  if (database) databases.push(database);
  const started = await startAppServer({ TRUST_PROXY: undefined, ...env, DATABASE_URL: database?.url ?? "" });
  servers.push(started);
  return started;
}

let direct = "";
let proxied = "";
beforeAll(async () => {
  // Both at once: each migrates and seeds a database of its own first.
  [direct, proxied] = (
    await Promise.all([
      server({ SIGNIN_MAX_FAILURES_PER_ADDRESS: "4" }),
      // Pairs lock after 3 failures; the account waits after 6 (at most a second, to keep the test short).
      server({ TRUST_PROXY: "1", SIGNIN_MAX_FAILURES: "3", SIGNIN_ACCOUNT_DELAY_AFTER: "6", SIGNIN_ACCOUNT_DELAY_MAX_SECONDS: "1" }),
    ])
  ).map((s) => s.origin) as [string, string];
}, 180_000);

afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const d of databases) await d.close();
});

describe("sign-in limits over HTTP, without TRUST_PROXY", () => {
  it("counts every attempt from one socket under one address, whatever X-Forwarded-For says", async () => {
    const origin = direct;
    const csrf = await csrfFor(origin);
    // A different account and a different claimed address each time, in every header that names one.
    for (let i = 1; i <= 4; i++) {
      const forged = `203.0.113.${i}`;
      const attempt = await attemptSignIn(origin, {
        email: `spray${i}@example.test`,
        password: "not the password",
        csrf,
        headers: { "x-forwarded-for": `${forged}, 198.51.100.${i}`, "x-real-ip": forged, forwarded: `for=${forged}` },
      });
      expect(attempt).toMatchObject({ session: null, code: i < 4 ? "invalid_credentials" : "locked" });
    }
    // The address is locked for every account, the right password included, under any claimed address.
    const fresh = await attemptSignIn(origin, {
      email: "admin@example.com",
      password: DEMO_PASSWORD,
      csrf,
      headers: { "x-forwarded-for": "192.0.2.200" },
    });
    expect(fresh).toMatchObject({ session: null, code: "locked" });
  });
});

describe("sign-in limits over HTTP, behind one trusted proxy", () => {
  it("a stranger's failures from other addresses do not lock the owner out of the right password", async () => {
    const origin = proxied;
    const csrf = await csrfFor(origin);
    const from = (address: string) => ({ "x-forwarded-for": address });
    for (const stranger of ["198.51.100.7", "198.51.100.8", "198.51.100.9"]) {
      for (let i = 1; i <= 3; i++) {
        const attempt = await attemptSignIn(origin, { email: "admin@example.com", password: `guess ${i}`, csrf, headers: from(stranger) });
        expect(attempt).toMatchObject({ session: null, code: i < 3 ? "invalid_credentials" : "locked" });
      }
    }
    // The stranger's addresses are locked for this account, even with the right password…
    expect(
      await attemptSignIn(origin, { email: "admin@example.com", password: DEMO_PASSWORD, csrf, headers: from("198.51.100.7") }),
    ).toMatchObject({ session: null, code: "locked" });
    // …and the owner, from an address of their own, signs in (after the account's short wait).
    const owner = await attemptSignIn(origin, { email: "admin@example.com", password: DEMO_PASSWORD, csrf, headers: from("192.0.2.10") });
    expect(owner.session).toMatch(/session-token=/);
    // Below its own limit the address is not locked: another account signs in from it.
    expect(
      await attemptSignIn(origin, { email: "lead@example.com", password: DEMO_PASSWORD, csrf, headers: from("198.51.100.7") }),
    ).toMatchObject({ session: expect.stringMatching(/session-token=/) });
  });
});
