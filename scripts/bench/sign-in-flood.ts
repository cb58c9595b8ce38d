// 6. GET /api/queue for a signed-in reviewer while 40 connections send bogus sign-ins, against the same
//    at rest: the p95 of one connection's back-to-back requests, each for `seconds`. Every bogus sign-in
//    names an email of its own and, through the server's TRUST_PROXY=1, an address of its own (a flood
//    from many addresses behind a proxy), so no lock cuts it short: each one reaches the password check,
//    and only the bound on password checks (lib/auth/hash-gate.ts) stands between it and the CPU.
import { randomUUID } from "node:crypto";
import { attemptSignIn, csrfFor } from "../../testing/sign-in";
import type { Report } from "./report";
import type { TServer } from "./server";
import { queueUnderFlood } from "./queue-under-flood";

export async function benchSignInFlood(server: TServer, report: Report, seconds: number): Promise<void> {
  const run = randomUUID().slice(0, 8);
  await queueUnderFlood(
    server,
    report,
    seconds,
    {
      sends: "send bogus sign-ins",
      answered: "sign-ins",
      note: "busy: refused by the bound on password checks, each held for its Retry-After second",
    },
    async () => {
      const csrf = await csrfFor(server.origin);
      return async (i) => {
        const attempt = await attemptSignIn(server.origin, {
          email: `flood-${run}-${i}@bench.example`,
          password: `not-the-password-${i}`,
          csrf,
          headers: { "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
        });
        if (attempt.session) throw new Error("a bogus sign-in was let in");
        return attempt.code ?? `HTTP ${attempt.status}`;
      };
    },
  );
}
