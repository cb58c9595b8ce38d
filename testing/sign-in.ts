// A real session over HTTP, for scripts that drive a running server (the bench, chaos) and the tests
// of the sign-in limits.
import { DEMO_PASSWORD } from "../prisma/seed/demo";

export interface TCsrf {
  csrfToken: string;
  /** The cookie that goes with the token. */
  cookie: string;
}

/** next-auth's CSRF token and its cookie, as the sign-in form gets them. One pair serves any number of attempts. */
export async function csrfFor(origin: string): Promise<TCsrf> {
  const csrf = await fetch(`${origin}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  // The response may set the csrf cookie twice (the proxy's session check and the endpoint): send the
  // one that carries the token in the body.
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.includes("csrf-token=") && decodeURIComponent(c.split("=")[1]!).startsWith(`${csrfToken}|`));
  if (!cookie) throw new Error("sign-in: no csrf cookie for the token");
  return { csrfToken, cookie };
}

export interface TSignInAttempt {
  status: number;
  /** The session cookie (`name=value`) when the sign-in succeeded. */
  session: string | null;
  /** next-auth's refusal code from the redirect (`invalid_credentials`, `locked`, `busy`), when refused. */
  code: string | null;
}

/** One credentials sign-in, as the browser's form posts it; `headers` are added (e.g. X-Forwarded-For). */
export async function attemptSignIn(
  origin: string,
  input: { email: string; password: string; csrf?: TCsrf; headers?: Record<string, string> },
): Promise<TSignInAttempt> {
  const { csrfToken, cookie } = input.csrf ?? (await csrfFor(origin));
  const response = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...input.headers, "content-type": "application/x-www-form-urlencoded", cookie, origin },
    body: new URLSearchParams({ csrfToken, email: input.email, password: input.password, callbackUrl: `${origin}/` }),
  });
  await response.arrayBuffer();
  const session = response.headers.getSetCookie().find((c) => c.includes("session-token="));
  const location = response.headers.get("location");
  const code = !session && location ? new URL(location, origin).searchParams.get("code") : null;
  return { status: response.status, session: session ? session.split(";")[0]! : null, code };
}

/** A real session: next-auth's credentials sign-in over HTTP, as the browser's form posts it. */
export async function signIn(origin: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  const attempt = await attemptSignIn(origin, { email, password });
  if (!attempt.session) throw new Error(`sign-in as ${email} failed: HTTP ${attempt.status}${attempt.code ? ` (${attempt.code})` : ""}`);
  return attempt.session;
}
