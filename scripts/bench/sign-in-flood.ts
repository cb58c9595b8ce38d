// 6. GET /api/queue for a signed-in reviewer while 40 connections send bogus sign-ins, against the same
//    at rest: the p95 of one connection's back-to-back requests, each for `seconds`. Every bogus sign-in
//    names an email of its own and, through the server's TRUST_PROXY=1, an address of its own (a flood
//    from many addresses behind a proxy), so no lock cuts it short: each one reaches the password check,
//    and only the bound on password checks (lib/auth/hash-gate.ts) stands between it and the CPU.
import { randomUUID } from "node:crypto";
import { attemptSignIn, csrfFor } from "../../testing/sign-in";
import { fmt, progress, type Report } from "./report";
import { signIn, type TServer } from "./server";

const FLOOD_CONNECTIONS = 40;
const REVIEWER = "reviewer@example.com";

export function p95(latencies: number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(0.95 * sorted.length) - 1))]!;
}

/** One connection's back-to-back GET /api/queue for `seconds`: every latency (any answer but 200 throws). */
export async function queueLatencies(origin: string, cookie: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    const response = await fetch(`${origin}/api/queue`, { headers: { cookie } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`/api/queue answered ${response.status} for a signed-in reviewer`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** Bogus sign-ins on `connections` loops until `stop` resolves; the answers counted by next-auth's code. */
function flood(origin: string, connections: number, stop: Promise<void>): Promise<Map<string, number>> {
  const answers = new Map<string, number>();
  let stopped = false;
  void stop.then(() => (stopped = true));
  const run = randomUUID().slice(0, 8);
  let n = 0;
  const loop = async () => {
    const csrf = await csrfFor(origin);
    while (!stopped) {
      const i = ++n;
      const attempt = await attemptSignIn(origin, {
        email: `flood-${run}-${i}@bench.example`,
        password: `not-the-password-${i}`,
        csrf,
        headers: { "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
      });
      if (attempt.session) throw new Error("a bogus sign-in was let in");
      const code = attempt.code ?? `HTTP ${attempt.status}`;
      answers.set(code, (answers.get(code) ?? 0) + 1);
    }
  };
  return Promise.all(Array.from({ length: connections }, loop)).then(() => answers);
}

export async function benchSignInFlood(server: TServer, report: Report, seconds: number): Promise<void> {
  const cookie = await signIn(server.origin, REVIEWER);
  progress(`/api/queue for a signed-in reviewer, one connection, ${seconds} s at rest…`);
  await queueLatencies(server.origin, cookie, 2);
  const rest = await queueLatencies(server.origin, cookie, seconds);
  progress(`…and ${seconds} s while ${FLOOD_CONNECTIONS} connections send bogus sign-ins…`);
  let stop!: () => void;
  const flooding = flood(server.origin, FLOOD_CONNECTIONS, new Promise<void>((resolve) => (stop = resolve)));
  // Its failure is reported once the queue's figure is taken, not as an unhandled rejection before.
  flooding.catch(() => undefined);
  let under: number[];
  try {
    await new Promise((resolve) => setTimeout(resolve, 2000)); // the flood at full strength first
    under = await queueLatencies(server.origin, cookie, seconds);
  } finally {
    stop();
  }
  const answers = await flooding;
  const total = [...answers.values()].reduce((a, b) => a + b, 0);
  const byCode = [...answers.entries()].map(([code, count]) => `${code} ${count.toLocaleString("en-US")}`).join(", ");
  progress(
    `/api/queue p95: ${fmt(p95(rest))} ms at rest (${rest.length} requests), ${fmt(p95(under))} ms under the flood (${under.length} requests); the flood's ${total.toLocaleString("en-US")} sign-ins: ${byCode} (busy: refused by the bound on password checks, each held for its Retry-After second)`,
  );
  report.multiple({
    measure: `/api/queue p95, reviewer, while ${FLOOD_CONNECTIONS} connections send bogus sign-ins`,
    value: p95(under),
    unit: "ms",
    baseline: p95(rest),
    baselineLabel: "/api/queue p95 at rest",
    atMost: 3,
  });
}
