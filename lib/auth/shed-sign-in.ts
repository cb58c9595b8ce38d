// Sign-ins the server has no capacity for, answered where the request enters the process, before
// Next.js and next-auth spend anything on them. When the bound on password checks is full
// (hash-gate.ts), a credentials sign-in would be refused as busy anyway; refusing it here costs a
// few microseconds instead of the routing, CSRF check and JSON work of a full request, which under a
// flood of bogus sign-ins is what took the CPU from signed-in users. The answer is the one next-auth
// gives for the same refusal, so the form and scripts cannot tell where it came from.
import type { IncomingMessage, ServerResponse } from "node:http";
import { signInHashGate, type THashGate } from "./hash-gate";
import { SIGN_IN_PATH } from "./public-paths";

export const CREDENTIALS_CALLBACK_PATH = "/api/auth/callback/credentials";

/** The busy refusal, as next-auth redirects a refused credentials sign-in. */
export const BUSY_LOCATION = `${SIGN_IN_PATH}?error=CredentialsSignin&code=busy`;

/** Answers a credentials sign-in with "busy" when the gate is full; true when it answered. */
export function shedSignIn(req: IncomingMessage, res: ServerResponse, gate: THashGate = signInHashGate()): boolean {
  if (req.method !== "POST" || (req.url ?? "/").split("?")[0] !== CREDENTIALS_CALLBACK_PATH || !gate.full()) return false;
  // The body is not read, only drained, so the connection can carry the next request.
  req.resume();
  const headers = { "cache-control": "no-store", "retry-after": "1" };
  // next-auth's client asks for the redirect as JSON instead of a 302.
  if (req.headers["x-auth-return-redirect"]) res.writeHead(200, { ...headers, "content-type": "application/json" }).end(JSON.stringify({ url: BUSY_LOCATION }));
  else res.writeHead(302, { ...headers, location: BUSY_LOCATION }).end();
  return true;
}
