// 7. GET /api/queue for a signed-in reviewer while 40 connections post bogus set-password submissions,
//    against the same at rest: the p95 of one connection's back-to-back requests, each for `seconds`.
//    Each submission is the link form's own action call (its id read from the build's manifest) with
//    a well-formed token that is no link and a valid password, from an address of its own through
//    the server's TRUST_PROXY=1 (a flood from many addresses behind a proxy), so no per-address lock
//    cuts it short. What stands between it and the CPU: the link is looked up before any hashing
//    (an unusable one is never hashed) and the sign-in throttle counts it (its wait paces the flood).
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Report } from "./report";
import { DIST, type TServer } from "./server";
import { queueUnderFlood } from "./queue-under-flood";

/** The set-password form's action id in this build (Next names each action in its manifest). */
function setPasswordActionId(): string {
  const manifest = JSON.parse(readFileSync(join(DIST, "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName?: string; filename?: string }>;
  };
  const found = Object.entries(manifest.node).find(([, a]) => a.exportedName === "setPasswordAction");
  if (!found) throw new Error(`no setPasswordAction in ${DIST}'s server-reference-manifest.json`);
  return found[0];
}

/** What the form said, in a word: the action's answer (an RSC payload) names its refusal. */
function answerOf(status: number, text: string): string {
  if (status !== 200) return `HTTP ${status}`;
  if (text.includes("This link no longer works")) return "link unusable";
  if (text.includes("Too many links")) return "locked";
  if (text.includes("Too many passwords")) return "busy";
  if (text.includes('"done"')) return "password set";
  return "other";
}

/** One bogus submission, as React posts the form (useActionState: the previous state and the form). */
async function submitBogus(origin: string, actionId: string, address: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const form = new FormData();
  form.append("_1_token", token);
  form.append("_1_password", "a long enough password");
  form.append("_1_confirm", "a long enough password");
  form.append("0", JSON.stringify([{ status: "idle" }, "$K1"]));
  const response = await fetch(`${origin}/set-password/${token}`, {
    method: "POST",
    headers: { "next-action": actionId, accept: "text/x-component", origin, "x-forwarded-for": address },
    body: form,
  });
  return answerOf(response.status, await response.text());
}

export async function benchSetPasswordFlood(server: TServer, report: Report, seconds: number): Promise<void> {
  const actionId = setPasswordActionId();
  // The call is the form's: a first one must be answered by the form's own refusal, or the figure means nothing.
  const first = await submitBogus(server.origin, actionId, "10.255.255.254");
  if (first !== "link unusable") throw new Error(`a bogus set-password submission was answered "${first}", not by the form`);
  const run = Number.parseInt(randomUUID().slice(0, 2), 16);
  await queueUnderFlood(
    server,
    report,
    seconds,
    { sends: "post bogus set-password links", answered: "submissions" },
    async () => async (i) => {
      const answer = await submitBogus(server.origin, actionId, `10.${run}.${(i >> 8) & 255}.${i & 255}`);
      if (answer === "password set") throw new Error("a bogus link set a password");
      return answer;
    },
  );
}
