// What the flood measures share: /api/queue for a signed-in reviewer on one connection, back to back,
// at rest and then while `connections` loops send bogus submissions of one kind (sign-ins, set-password
// links), reported as the p95 under the flood against the p95 at rest (at most 3×).
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

/** One bogus submission, numbered across the flood: answers what the server said, in a word. */
export type TFloodAttempt = (i: number) => Promise<string>;

/** `connections` loops, each set up by `connect`, sending attempts until `stop` resolves; the answers counted. */
function flood(connect: () => Promise<TFloodAttempt>, connections: number, stop: Promise<void>): Promise<Map<string, number>> {
  const answers = new Map<string, number>();
  let stopped = false;
  void stop.then(() => (stopped = true));
  let n = 0;
  const loop = async () => {
    const attempt = await connect();
    while (!stopped) {
      const answer = await attempt(++n);
      answers.set(answer, (answers.get(answer) ?? 0) + 1);
    }
  };
  return Promise.all(Array.from({ length: connections }, loop)).then(() => answers);
}

/**
 * The reviewer's /api/queue p95 at rest, then under the flood `connect` makes (`what`: what it sends,
 * for the progress lines and the report), reported as a multiple of the figure at rest.
 */
export async function queueUnderFlood(
  server: TServer,
  report: Report,
  seconds: number,
  what: { sends: string; answered: string; note?: string },
  connect: () => Promise<TFloodAttempt>,
): Promise<void> {
  const cookie = await signIn(server.origin, REVIEWER);
  progress(`/api/queue for a signed-in reviewer, one connection, ${seconds} s at rest…`);
  await queueLatencies(server.origin, cookie, 2);
  const rest = await queueLatencies(server.origin, cookie, seconds);
  progress(`…and ${seconds} s while ${FLOOD_CONNECTIONS} connections ${what.sends}…`);
  let stop!: () => void;
  const flooding = flood(connect, FLOOD_CONNECTIONS, new Promise<void>((resolve) => (stop = resolve)));
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
  const byAnswer = [...answers.entries()].map(([answer, count]) => `${answer} ${count.toLocaleString("en-US")}`).join(", ");
  progress(
    `/api/queue p95: ${fmt(p95(rest))} ms at rest (${rest.length} requests), ${fmt(p95(under))} ms under the flood (${under.length} requests); the flood's ${total.toLocaleString("en-US")} ${what.answered}: ${byAnswer}${what.note ? ` (${what.note})` : ""}`,
  );
  report.multiple({
    measure: `/api/queue p95, reviewer, while ${FLOOD_CONNECTIONS} connections ${what.sends}`,
    value: p95(under),
    unit: "ms",
    baseline: p95(rest),
    baselineLabel: "/api/queue p95 at rest",
    atMost: 3,
  });
}
