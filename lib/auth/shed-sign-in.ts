// Sign-ins the server has no capacity for, answered where the request enters the process, before
// Next.js and next-auth spend anything on them. When the bound on password checks is full
// (hash-gate.ts), a credentials sign-in would be refused as busy anyway; refusing it here costs a
// few microseconds instead of the routing, CSRF check and JSON work of a full request, which under a
// flood of bogus sign-ins is what took the CPU from signed-in users. The answer is the one next-auth
// gives for the same refusal, so the form and scripts cannot tell where it came from.
//
// The answer is held for the second its Retry-After names before it is sent (a timer, no CPU): a
// client that sends its next sign-in as soon as the last is answered – every connection of a flood –
// then sends one a second, instead of as many as the server can refuse, and the refusals stop
// crowding signed-in users' requests off the event loop.
import type { IncomingMessage, ServerResponse } from "node:http";
import { signInHashGate, type THashGate } from "./hash-gate";
import { SIGN_IN_PATH } from "./public-paths";

export const CREDENTIALS_CALLBACK_PATH = "/api/auth/callback/credentials";

/** The busy refusal, as next-auth redirects a refused credentials sign-in. */
export const BUSY_LOCATION = `${SIGN_IN_PATH}?error=CredentialsSignin&code=busy`;

/** How long a shed sign-in's answer is held: its Retry-After. */
export const SHED_HOLD_MS = 1_000;

/** Answers a credentials sign-in with "busy" when the gate is full, after `holdMs`; true when it took the request. */
export function shedSignIn(req: IncomingMessage, res: ServerResponse, gate: THashGate = signInHashGate(), holdMs = SHED_HOLD_MS): boolean {
  if (req.method !== "POST" || (req.url ?? "/").split("?")[0] !== CREDENTIALS_CALLBACK_PATH || !gate.full()) return false;
  // The body is not read, only drained, so the connection can carry the next request.
  req.resume();
  const headers = { "cache-control": "no-store", "retry-after": String(Math.max(1, Math.ceil(holdMs / 1000))) };
  const answer = () => {
    if (res.destroyed || res.writableEnded) return;
    // next-auth's client asks for the redirect as JSON instead of a 302.
    if (req.headers["x-auth-return-redirect"])
      res.writeHead(200, { ...headers, "content-type": "application/json" }).end(JSON.stringify({ url: BUSY_LOCATION }));
    else res.writeHead(302, { ...headers, location: BUSY_LOCATION }).end();
  };
  const timer = setTimeout(answer, holdMs);
  res.once("close", () => clearTimeout(timer));
  return true;
}
