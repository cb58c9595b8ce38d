// A real session over HTTP, for scripts that drive a running server (the bench, chaos).
import { DEMO_PASSWORD } from "../prisma/seed/demo";

/** A real session: next-auth's credentials sign-in over HTTP, as the browser's form posts it. */
export async function signIn(origin: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  const csrf = await fetch(`${origin}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  // The response may set the csrf cookie twice (the proxy's session check and the endpoint): send the
  // one that carries the token in the body.
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.includes("csrf-token=") && decodeURIComponent(c.split("=")[1]!).startsWith(`${csrfToken}|`));
  if (!csrfCookie) throw new Error("sign-in: no csrf cookie for the token");
  const response = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie, origin },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${origin}/` }),
  });
  const session = response.headers.getSetCookie().find((c) => c.includes("session-token="));
  if (!session) throw new Error(`sign-in as ${email} failed: HTTP ${response.status}`);
  return session.split(";")[0]!;
}
