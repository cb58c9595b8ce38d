// Sign-in through an identity provider as an attacker meets it: next-auth's routes behind a real HTTP
// server (testing/logged-server.ts) and a real OpenID Connect provider on loopback (oidc-provider),
// every step over HTTP as a browser makes it (testing/oidc-flow.ts). What the protocol guarantees –
// the issuer, a code used once, the nonce – and what the app decides – a verified email, a mapped
// group – are each shown refused, beside the sign-in that works.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type TAppServer } from "../../testing/app-server";
import { createTestDb, type TestDb } from "../../testing/db";
import { finishAtApp, oidcSignIn, signInAtProvider, startAtApp } from "../../testing/oidc-flow";
import { DEFAULT_OIDC_PEOPLE, DEFAULT_OIDC_ROLE_MAP, startOidcProvider, type TOidcProvider } from "../../testing/oidc-provider";

let provider: TOidcProvider;
let impostor: TOidcProvider;
let app: TAppServer;
let wrongIssuerApp: TAppServer;
const databases: TestDb[] = [];

async function server(env: Record<string, string | undefined>): Promise<TAppServer> {
  const database = process.env.DATABASE_URL ? await createTestDb() : undefined;
  if (database) databases.push(database);
  return startAppServer({ ...env, DATABASE_URL: database?.url ?? "" });
}

beforeAll(async () => {
  provider = await startOidcProvider({});
  // A provider at one address whose discovery document names another issuer.
  impostor = await startOidcProvider({ issuer: "http://issuer.example" });
  const connection = { OIDC_CLIENT_ID: provider.clientId, OIDC_CLIENT_SECRET: provider.clientSecret, OIDC_ROLE_MAP: DEFAULT_OIDC_ROLE_MAP };
  [app, wrongIssuerApp] = await Promise.all([
    server({ ...connection, OIDC_ISSUER: provider.issuer }),
    server({ ...connection, OIDC_ISSUER: impostor.origin }),
  ]);
  provider.allowRedirect(`${app.origin}/api/auth/callback/oidc`);
  impostor.allowRedirect(`${wrongIssuerApp.origin}/api/auth/callback/oidc`);
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await wrongIssuerApp?.stop();
  await provider?.close();
  await impostor?.close();
  for (const d of databases) await d.close();
});

/** The signed-in user as next-auth's session endpoint answers it for this cookie. */
async function sessionUser(origin: string, cookie: string): Promise<{ email?: string; role?: string } | null> {
  const response = await fetch(`${origin}/api/auth/session`, { headers: { cookie } });
  const body = (await response.json()) as { user?: { email?: string; role?: string } } | null;
  return body?.user ?? null;
}

const refusalCode = (location: string | null) => (location ? new URL(location, app.origin).searchParams.get("code") : null);

describe("sign-in through the identity provider", () => {
  it("signs a person in with the role their groups map to, and a group taken away takes the role at the next sign-in", async () => {
    const first = await oidcSignIn(app.origin, "sam");
    expect(first.session).not.toBeNull();
    // The demo account is a specialist; the provider's groups say lead (the highest mapped).
    expect(await sessionUser(app.origin, first.session!)).toMatchObject({ email: "specialist@example.com", role: "LEAD" });

    provider.people.set("sam", { ...DEFAULT_OIDC_PEOPLE.sam!, groups: ["countersign-reviewers"] });
    const next = await oidcSignIn(app.origin, "sam");
    expect(await sessionUser(app.origin, next.session!)).toMatchObject({ email: "specialist@example.com", role: "REVIEWER" });

    provider.people.set("sam", { ...DEFAULT_OIDC_PEOPLE.sam!, groups: ["some-other-team"] });
    const none = await oidcSignIn(app.origin, "sam");
    expect(none).toMatchObject({ session: null });
    expect(refusalCode(none.location)).toBe("no_mapped_role");
    provider.people.set("sam", DEFAULT_OIDC_PEOPLE.sam!);
  });

  it("refuses an email the provider does not vouch for, even one that names an account here", async () => {
    const attempt = await oidcSignIn(app.origin, "una");
    expect(attempt.session).toBeNull();
    expect(refusalCode(attempt.location)).toBe("email_unverified");
  });

  it("refuses a person with no account while the admin does not create accounts at first sign-in", async () => {
    const attempt = await oidcSignIn(app.origin, "nova");
    expect(attempt.session).toBeNull();
    expect(refusalCode(attempt.location)).toBe("no_account");
  });

  it("refuses a provider whose discovery document names another issuer than the one configured", async () => {
    const { authorizeUrl } = await startAtApp(wrongIssuerApp.origin);
    // Never sent to the provider: next-auth stops at discovery and answers with its error page.
    expect(authorizeUrl.startsWith(impostor.origin)).toBe(false);
    expect(new URL(authorizeUrl).searchParams.get("error")).toBe("Configuration");
  });

  it("refuses an authorization response that names another issuer (RFC 9207 iss)", async () => {
    const { app: cookies, authorizeUrl } = await startAtApp(app.origin);
    const callback = new URL(await signInAtProvider(authorizeUrl, "riley"));
    expect(callback.searchParams.get("iss")).toBe(provider.issuer);
    callback.searchParams.set("iss", "http://127.0.0.1:1/");
    const attempt = await finishAtApp(callback.toString(), cookies);
    expect(attempt.session).toBeNull();
  });

  it("refuses a replayed code, even with the first attempt's own cookies", async () => {
    const { app: cookies, authorizeUrl } = await startAtApp(app.origin);
    const callback = await signInAtProvider(authorizeUrl, "riley");
    const saved = cookies.copy();
    expect((await finishAtApp(callback, cookies)).session).not.toBeNull();
    const replay = await finishAtApp(callback, saved);
    expect(replay.session).toBeNull();
    expect(replay.location).toContain("error=");
  });

  it("refuses an ID token whose nonce is not the one this browser's sign-in began with", async () => {
    const { app: cookies, authorizeUrl } = await startAtApp(app.origin);
    const tampered = new URL(authorizeUrl);
    expect(tampered.searchParams.get("nonce")).toBeTruthy();
    tampered.searchParams.set("nonce", "a-nonce-of-another-sign-in");
    const attempt = await finishAtApp(await signInAtProvider(tampered.toString(), "riley"), cookies);
    expect(attempt.session).toBeNull();
    expect(attempt.location).toContain("error=");
  });

  it("refuses a callback that did not begin in this browser (no state cookie)", async () => {
    const { authorizeUrl } = await startAtApp(app.origin);
    const { app: others } = await startAtApp(app.origin);
    const attempt = await finishAtApp(await signInAtProvider(authorizeUrl, "riley"), others);
    expect(attempt.session).toBeNull();
  });
});
