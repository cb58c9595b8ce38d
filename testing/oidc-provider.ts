// A real OpenID Connect provider on loopback, for the tests and the browser suite: the `oidc-provider`
// package (the certified implementation) with one confidential client, people and groups set at start
// and changeable while it runs, and a plain sign-in page in place of a password: the person's login
// name is typed (or posted) and they are signed in, with no consent screen.
//
// Control (JSON, for tests): GET /__people lists them; PUT /__people/<login> replaces one (its groups,
// email_verified…). Run it: `npx tsx testing/oidc-provider.ts --port 3472 --redirect http://…/api/auth/callback/oidc`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import Provider, { type Configuration } from "oidc-provider";

export interface TOidcPerson {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  groups: string[];
}

export interface TOidcProviderOptions {
  port?: number;
  /** The issuer it names itself by; `http://127.0.0.1:<port>` unless given. */
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  /** Where it may send people back (the app's /api/auth/callback/oidc); more with allowRedirect before the first sign-in. */
  redirectUris?: string[];
  people?: Record<string, TOidcPerson>;
}

export interface TOidcProvider {
  issuer: string;
  origin: string;
  port: number;
  clientId: string;
  clientSecret: string;
  people: Map<string, TOidcPerson>;
  /** Adds a redirect URI; only before the first request to the provider (its client is made then). */
  allowRedirect(uri: string): void;
  close(): Promise<void>;
}

export const DEFAULT_OIDC_CLIENT = { clientId: "countersign", clientSecret: "countersign-oidc-client-secret-0123456789" };

/** The groups-to-roles map the suite configures the app with (OIDC_ROLE_MAP). */
export const DEFAULT_OIDC_ROLE_MAP =
  "countersign-admins=ADMIN,countersign-leads=LEAD,countersign-specialists=SPECIALIST,countersign-reviewers=REVIEWER";

/**
 * The people the browser suite and the tests sign in as (login name → claims). Their emails are the
 * demo accounts'; `una` claims the lead's email without the provider vouching for it, and `nova` has
 * no account here.
 */
export const DEFAULT_OIDC_PEOPLE: Record<string, TOidcPerson> = {
  ada: { sub: "sub-ada", email: "admin@example.com", email_verified: true, name: "Ada Admin", groups: ["countersign-admins"] },
  sam: {
    sub: "sub-sam",
    email: "specialist@example.com",
    email_verified: true,
    name: "Sam Specialist",
    groups: ["countersign-leads", "countersign-reviewers"],
  },
  riley: {
    sub: "sub-riley",
    email: "reviewer@example.com",
    email_verified: true,
    name: "Riley Reviewer",
    groups: ["countersign-reviewers"],
  },
  una: { sub: "sub-una", email: "lead@example.com", email_verified: false, name: "Una Unverified", groups: ["countersign-admins"] },
  nova: { sub: "sub-nova", email: "nova@example.com", email_verified: true, name: "Nova Newcomer", groups: ["countersign-reviewers"] },
};

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local identity provider</title></head><body>${body}</body></html>`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function configuration(
  options: TOidcProviderOptions,
  people: Map<string, TOidcPerson>,
  clientId: string,
  clientSecret: string,
): Configuration {
  return {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ["code"],
        grant_types: ["authorization_code"],
      },
    ],
    // Groups ride on the profile scope, so the app asks only for the standard scopes.
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "groups"] },
    // Auth.js reads the ID token's claims: put the scopes' claims there, not only in userinfo.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["local-oidc-provider-cookie-key-0123456789"] },
    async findAccount(_ctx, id) {
      const person = [...people.values()].find((p) => p.sub === id);
      if (!person) return undefined;
      return { accountId: id, claims: async () => ({ ...person, groups: [...person.groups] }) };
    },
    // No consent screen: the one client is trusted with every scope it asks for.
    async loadExistingGrant(ctx) {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  };
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of request) body += String(chunk);
  return new URLSearchParams(body);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let body = "";
  for await (const chunk of request) body += String(chunk);
  return JSON.parse(body);
}

function send(response: ServerResponse, status: number, type: string, body: string) {
  response.writeHead(status, { "content-type": type });
  response.end(body);
}

/** The sign-in page: a login name, nothing else. An unknown name is shown the page again. */
async function interaction(provider: Provider, people: Map<string, TOidcPerson>, request: IncomingMessage, response: ServerResponse) {
  // Throws for an unknown or expired interaction: no page for it.
  await provider.interactionDetails(request, response);
  if (request.method === "GET") {
    return send(
      response,
      200,
      "text/html; charset=utf-8",
      page(
        `<h1>Local identity provider</h1><form method="post"><label>Login <input name="login" autofocus></label> <button type="submit">Continue</button></form>`,
      ),
    );
  }
  const login = (await readForm(request)).get("login") ?? "";
  const person = people.get(login);
  if (!person) return send(response, 200, "text/html; charset=utf-8", page(`<p>No such login: ${escapeHtml(login)}</p>`));
  await provider.interactionFinished(request, response, { login: { accountId: person.sub } }, { mergeWithLastSubmission: false });
}

/** GET /__people; PUT /__people/<login> with the person's claims (groups, email_verified…). */
async function control(people: Map<string, TOidcPerson>, request: IncomingMessage, response: ServerResponse, path: string) {
  const login = decodeURIComponent(path.slice("/__people/".length));
  if (request.method === "GET" && path === "/__people")
    return send(response, 200, "application/json", JSON.stringify(Object.fromEntries(people)));
  if (request.method === "PUT" && login) {
    people.set(login, (await readJson(request)) as TOidcPerson);
    return send(response, 204, "text/plain", "");
  }
  send(response, 404, "text/plain", "not found");
}

export async function startOidcProvider(options: TOidcProviderOptions): Promise<TOidcProvider> {
  const people = new Map(Object.entries(structuredClone(options.people ?? DEFAULT_OIDC_PEOPLE)));
  const clientId = options.clientId ?? DEFAULT_OIDC_CLIENT.clientId;
  const clientSecret = options.clientSecret ?? DEFAULT_OIDC_CLIENT.clientSecret;
  const redirectUris = [...(options.redirectUris ?? [])];
  let issuer = "";
  let provider: Provider | undefined;
  // Made at the first request, so the app's callback URL may be added once the app has a port.
  type TProviderError = { message?: string; error_description?: string; error_detail?: string };
  const made = () => {
    if (provider) return provider;
    provider = new Provider(issuer, configuration({ ...options, redirectUris }, people, clientId, clientSecret));
    // What the provider refused, and why, for whoever reads the test server's output.
    for (const event of ["grant.error", "authorization.error"])
      (provider.on as (name: string, listener: (ctx: unknown, error: TProviderError) => void) => void)(event, (_ctx, error) =>
        console.error(`oidc-provider ${event}: ${error.message} (${error.error_detail ?? error.error_description ?? "no detail"})`),
      );
    return provider;
  };
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://provider").pathname;
    const handled = path.startsWith("/interaction/")
      ? interaction(made(), people, request, response)
      : path.startsWith("/__people")
        ? control(people, request, response, path)
        : Promise.resolve(made().callback()(request, response));
    handled.catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, "text/plain", String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const origin = `http://127.0.0.1:${port}`;
  issuer = options.issuer ?? origin;
  return {
    issuer,
    origin,
    port,
    clientId,
    clientSecret,
    people,
    allowRedirect: (uri) => {
      if (provider) throw new Error("oidc-provider: allowRedirect after the first request");
      redirectUris.push(uri);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function cli() {
  const { values } = parseArgs({
    options: { port: { type: "string", default: "3472" }, redirect: { type: "string", multiple: true }, issuer: { type: "string" } },
  });
  const redirectUris = values.redirect ?? [];
  if (redirectUris.length === 0) throw new Error("oidc-provider: give --redirect <the app's /api/auth/callback/oidc URL>");
  const started = await startOidcProvider({ port: Number(values.port), redirectUris, issuer: values.issuer });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void started.close().then(() => process.exit(0)));
  console.log(
    JSON.stringify({
      msg: "listening",
      issuer: started.issuer,
      clientId: started.clientId,
      clientSecret: started.clientSecret,
      people: [...started.people.keys()],
    }),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await cli();
