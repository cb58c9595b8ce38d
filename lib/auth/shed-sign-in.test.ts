import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHashGate } from "./hash-gate";
import { BUSY_LOCATION, CREDENTIALS_CALLBACK_PATH, shedSignIn } from "./shed-sign-in";

// A real HTTP server whose only handler after the shedding answers 404 "reached the app".
const gate = createHashGate({ concurrency: 1, queue: 0 });
const HOLD_MS = 300;
let server: Server;
let origin = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    if (shedSignIn(req, res, gate, HOLD_MS)) return;
    req.resume();
    res.writeHead(404).end("reached the app");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const signInPost = (headers: Record<string, string> = {}, path = CREDENTIALS_CALLBACK_PATH) =>
  fetch(`${origin}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: "email=a%40b.example&password=x&csrfToken=t",
  });

/** Runs `check` while the gate's one turn is taken. */
async function whileFull(check: () => Promise<void>) {
  let release!: () => void;
  const holding = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
  try {
    await check();
  } finally {
    release();
    await holding;
  }
}

describe("shedding sign-ins where requests enter", () => {
  it("passes sign-ins through while the password checks have room", async () => {
    const response = await signInPost();
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("reached the app");
  });

  it("answers a credentials sign-in as busy, as next-auth would, when the password checks are full, after holding it", async () => {
    await whileFull(async () => {
      const sent = Date.now();
      const response = await signInPost();
      // Held for its hold, not answered at once: a flood's connections each wait before the next try.
      expect(Date.now() - sent).toBeGreaterThanOrEqual(HOLD_MS - 20);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(BUSY_LOCATION);
      expect(response.headers.get("retry-after")).toBe("1");
      // next-auth's client asks for the redirect as JSON.
      const json = await signInPost({ "x-auth-return-redirect": "1" });
      expect(json.status).toBe(200);
      expect(await json.json()).toEqual({ url: BUSY_LOCATION });
    });
    expect(BUSY_LOCATION).toBe("/signin?error=CredentialsSignin&code=busy");
  });

  it("leaves everything else to the app, even while full", async () => {
    await whileFull(async () => {
      expect((await fetch(`${origin}${CREDENTIALS_CALLBACK_PATH}`)).status).toBe(404);
      expect((await signInPost({}, "/api/auth/signout")).status).toBe(404);
      expect((await signInPost({}, `${CREDENTIALS_CALLBACK_PATH}/x`)).status).toBe(404);
      expect((await fetch(`${origin}/api/queue`)).status).toBe(404);
    });
  });
});
