// A sign-in through the identity provider over HTTP, as a browser makes it, step by step, with a
// cookie jar per site: the app's sign-in redirect, the provider's authorization and sign-in page, the
// app's callback. Each step can be looked at or altered, for the tests of what the app refuses.
import { csrfFor } from "./sign-in";

/** Cookies by name for one site (paths ignored: every request of a test goes to the paths that set them). */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join("; ");
  }
  copy(): CookieJar {
    const jar = new CookieJar();
    for (const [n, v] of this.cookies) jar.cookies.set(n, v);
    return jar;
  }
}

async function get(url: string, jar: CookieJar, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    redirect: "manual",
    ...init,
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
  });
  jar.take(response);
  await response.arrayBuffer();
  return response;
}

const locationOf = (response: Response, base: string) => {
  const location = response.headers.get("location");
  if (!location) throw new Error(`oidc flow: no redirect from ${base} (HTTP ${response.status})`);
  return new URL(location, base).toString();
};

/** Step 1: the app sends the browser to the provider; its state, PKCE and nonce cookies are in `app`. */
export async function startAtApp(appOrigin: string): Promise<{ app: CookieJar; authorizeUrl: string }> {
  const csrf = await csrfFor(appOrigin);
  const app = new CookieJar();
  app.take(new Response(null, { headers: { "set-cookie": csrf.cookie } }));
  const response = await get(`${appOrigin}/api/auth/signin/oidc`, app, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: appOrigin },
    body: new URLSearchParams({ csrfToken: csrf.csrfToken, callbackUrl: `${appOrigin}/` }),
  });
  return { app, authorizeUrl: locationOf(response, appOrigin) };
}

/** Step 2: at the provider, sign in as `login`; answers the app's callback URL (code, state, iss). */
export async function signInAtProvider(authorizeUrl: string, login: string): Promise<string> {
  const provider = new CookieJar();
  let url = locationOf(await get(authorizeUrl, provider), authorizeUrl);
  // The sign-in page: post the login name, then follow the provider's redirects back to the app.
  let response = await get(url, provider, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ login }),
  });
  for (let hops = 0; hops < 5; hops++) {
    url = locationOf(response, url);
    if (!url.startsWith(new URL(authorizeUrl).origin)) return url;
    response = await get(url, provider);
  }
  throw new Error("oidc flow: the provider did not send the browser back");
}

export interface TCallbackResult {
  status: number;
  /** The session cookie (`name=value`) when the sign-in succeeded. */
  session: string | null;
  location: string | null;
}

/** Step 3: the app's callback with the app's cookies; a session cookie when it signed the person in. */
export async function finishAtApp(callbackUrl: string, app: CookieJar): Promise<TCallbackResult> {
  const response = await get(callbackUrl, app);
  const session = response.headers.getSetCookie().find((c) => /session-token=[^;]/.test(c) && !/max-age=0/i.test(c));
  return { status: response.status, session: session ? session.split(";")[0]! : null, location: response.headers.get("location") };
}

/** The whole sign-in, unaltered. */
export async function oidcSignIn(appOrigin: string, login: string): Promise<TCallbackResult> {
  const { app, authorizeUrl } = await startAtApp(appOrigin);
  return finishAtApp(await signInAtProvider(authorizeUrl, login), app);
}
