// The chaos run with refunds executed at Stripe (`--provider stripe`): the fake Stripe as a process of
// its own (testing/fake-stripe/cli.ts), every order paid there, faults injected through its control
// API while servers and workers are killed, and afterwards what the provider holds counted against
// the ledger: exactly one provider refund for every ledger row, none for an approval without one.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { openDb } from "../lib/db";
import { reconcileProviderRefunds } from "../lib/approvals/reconcile-refunds";
import { PAYMENT_SETTING_KEYS } from "../lib/payments/payment-settings";

type TClient = ReturnType<typeof openDb>["client"];

const API_KEY = "sk_test_chaos_0123456789abcdef";
const WEBHOOK_SECRET = "whsec_chaos_0123456789abcdef0123456789abcdef";
/** A refund is pending this long before the fake makes it succeeded (and says so in events). */
const SETTLE_AFTER_MS = 400;
const FINAL_STATES = ["succeeded", "failed", "canceled"];

export interface TFakeStripeProcess {
  child: ChildProcess;
  url: string;
  /** What servers, workers and this process need to execute refunds at the fake. */
  env: Record<string, string>;
  control: <T>(method: "GET" | "POST", path: string, body?: unknown) => Promise<T>;
}

/** The fake Stripe on `port` (0: any free one), its events posted to `webhookUrl`; resolves once it listens. */
export async function startFakeStripeProcess(port: number, webhookUrl: string | null): Promise<TFakeStripeProcess> {
  const args = ["--port", String(port), ...(webhookUrl ? ["--webhook-url", webhookUrl] : []), "--webhook-secret", WEBHOOK_SECRET];
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "testing/fake-stripe/cli.ts", ...args, "--settle-after-ms", String(SETTLE_AFTER_MS), "--api-key", API_KEY],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const ready = await new Promise<{ port: number }>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => resolve(JSON.parse(line) as { port: number }));
    child.once("exit", (code) => reject(new Error(`the fake Stripe exited (${code}) before it listened`)));
  });
  // Said where it happens: otherwise the run learns of it only as a refused connection later on.
  child.once("exit", (code, signal) => {
    if (!child.killed) console.error(`chaos: the fake Stripe exited (${signal ?? code}) while the run used it`);
  });
  const url = `http://127.0.0.1:${ready.port}`;
  const control = async <T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> => {
    const request = () =>
      fetch(`${url}/_fake/${path}`, {
        method,
        headers: { "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    // A kept-alive connection the fake closed as it was reused (ECONNRESET on a loaded machine) is the
    // harness's, not the run's: asked once more on a new one (a fault set twice only makes the fake misbehave more).
    const response = await request().catch(() => request());
    if (!response.ok) throw new Error(`fake Stripe ${method} /_fake/${path}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const env = { PAYMENTS_PROVIDER: "stripe", STRIPE_SECRET_KEY: API_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: url };
  return { child, url, env, control };
}

/**
 * The workers' reconciliation (the `reconcile-payments` job, every minute) asks about a row not final
 * after `seconds` rather than the default two minutes: within a run, while workers are being killed.
 */
export async function reconcileAfter(client: TClient, seconds: number): Promise<void> {
  const key = PAYMENT_SETTING_KEYS.reconcileAfterSeconds;
  await client.setting.upsert({ where: { key }, create: { key, value: seconds }, update: { value: seconds } });
}

/** Every order with an amount and no payment yet is paid at the fake with a PaymentIntent of its amount. */
export async function payOrdersAtFake(client: TClient, fake: TFakeStripeProcess): Promise<number> {
  const orders = await client.order.findMany({
    where: { amountCents: { gt: 0 }, paymentReference: null },
    select: { id: true, amountCents: true, currency: true },
  });
  for (const order of orders) {
    const pi = await fake.control<{ id: string }>("POST", "payment_intents", {
      amount: order.amountCents,
      currency: order.currency.toLowerCase(),
    });
    await client.order.update({ where: { id: order.id }, data: { paymentReference: pi.id } });
  }
  return orders.length;
}

/**
 * While `running()`: every few hundred ms, one fault for the refunds API picked by the seeded
 * generator – a slow answer, a lost answer (twice, so the client's own single retry does not heal
 * it), a 500 – and now and then the events sent to the other server, or not sent at all for a while
 * (an event made while no endpoint is set is never sent: only the reconciliation learns what it said).
 * Events go to a server again at the end. Answers what it injected.
 */
export async function injectFaults(
  fake: TFakeStripeProcess,
  input: { random: () => number; running: () => boolean; webhookUrls: string[] },
): Promise<Record<string, number>> {
  const counts: Record<string, number> = { slow: 0, lose_answer: 0, error500: 0, events_moved: 0, events_off: 0 };
  let eventsOff = false;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  while (input.running()) {
    await sleep(150 + input.random() * 450);
    const roll = input.random();
    if (roll < 0.4) {
      await fake.control("POST", "faults", { kind: "slow", ms: Math.round(300 + input.random() * 4_000), match: "/v1/refunds" });
      counts.slow!++;
    } else if (roll < 0.75) {
      await fake.control("POST", "faults", { kind: "lose_answer", times: input.random() < 0.5 ? 1 : 2, match: "/v1/refunds" });
      counts.lose_answer!++;
    } else if (roll < 0.85) {
      await fake.control("POST", "faults", { kind: "error500", match: "/v1/refunds" });
      counts.error500!++;
    } else if (!eventsOff && input.random() < 0.5) {
      await fake.control("POST", "webhook_url", { url: null });
      eventsOff = true;
      counts.events_off!++;
    } else {
      const url = input.webhookUrls[Math.floor(input.random() * input.webhookUrls.length)]!;
      await fake.control("POST", "webhook_url", { url });
      eventsOff = false;
      counts.events_moved!++;
    }
  }
  await fake.control("POST", "webhook_url", { url: input.webhookUrls[0] });
  return counts;
}

/**
 * After the queue drained: the reconciliation, again and again, until no ledger row is left
 * requested or pending (or `ms` passed). Answers the passes it took and the rows still open.
 */
export async function reconcileUntilFinal(client: TClient, ms: number): Promise<{ passes: number; open: number }> {
  const deadline = Date.now() + ms;
  for (let passes = 1; ; passes++) {
    await reconcileProviderRefunds({ client, olderThanMs: 2_000, log: () => {} });
    const open = await client.ledgerEntry.count({ where: { state: { notIn: ["succeeded", "failed", "canceled"] } } });
    if (open === 0 || Date.now() > deadline) return { passes, open };
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

interface TFakeRefund {
  id: string;
  status: string;
  metadata: Record<string, string> | null;
}

/** What the provider holds, counted against the ledger and the replies. */
export async function providerInvariants(client: TClient, fake: TFakeStripeProcess) {
  const refunds = await fake.control<TFakeRefund[]>("GET", "refunds");
  const byApproval = new Map<string, TFakeRefund[]>();
  let untied = 0;
  for (const r of refunds) {
    const approvalId = r.metadata?.countersign_approval;
    if (!approvalId) untied++;
    else byApproval.set(approvalId, [...(byApproval.get(approvalId) ?? []), r]);
  }
  const approvals = await client.approvalRequest.findMany({
    where: { kind: "refund" },
    select: { id: true, status: true, ledgerEntries: { select: { provider: true, providerRefundId: true, state: true } } },
  });
  const wrong: string[] = [];
  /** Rows whose state is not their refund's status at the provider. */
  const disagreeing: string[] = [];
  for (const a of approvals) {
    const atProvider = byApproval.get(a.id) ?? [];
    const entry = a.ledgerEntries[0];
    const expected = entry ? 1 : 0;
    const theirs = atProvider.find((r) => r.id === entry?.providerRefundId);
    const tied = !entry || theirs !== undefined;
    if (entry && theirs && theirs.status !== entry.state) disagreeing.push(`${a.id}: ledger ${entry.state}, provider ${theirs.status}`);
    if (atProvider.length !== expected || !tied)
      wrong.push(
        `${a.id} (${a.status}, ledger ${entry ? `${entry.state} ${entry.providerRefundId}` : "none"}): ${atProvider.length} at the provider`,
      );
  }
  const known = new Set(approvals.map((a) => a.id));
  const strangers = [...byApproval.keys()].filter((id) => !known.has(id)).length;
  const withLedgerRow = approvals.filter((a) => a.ledgerEntries.length > 0).length;
  return { refunds: refunds.length, withLedgerRow, wrong, disagreeing, untied, strangers };
}

/** Ledger rows by state; replies released without a succeeded refund; lag from a row's creation to its final state. */
export async function ledgerFigures(client: TClient) {
  const byState = await client.$queryRawUnsafe<{ state: string; n: number }[]>(
    `SELECT state::text AS state, count(*)::int AS n FROM "LedgerEntry" GROUP BY 1 ORDER BY 1`,
  );
  const [replies] = await client.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM "OutboxMessage" o JOIN "ApprovalRequest" a ON a.id = o."approvalRequestId"
      WHERE a.kind = 'refund'
        AND NOT EXISTS (SELECT 1 FROM "LedgerEntry" l WHERE l."approvalRequestId" = a.id AND l.state = 'succeeded')
        -- a reply withdrawn before it was sent (its refund failed) never reached the customer
        AND NOT EXISTS (SELECT 1 FROM "ReplyDelivery" d WHERE d."outboxMessageId" = o.id AND d.state = 'withdrawn')`,
  );
  const lags = (
    await client.$queryRawUnsafe<{ ms: number }[]>(
      `SELECT (extract(epoch FROM ("stateChangedAt" - "createdAt")) * 1000)::float8 AS ms FROM "LedgerEntry"
        WHERE state::text = ANY($1::text[]) ORDER BY 1`,
      FINAL_STATES,
    )
  ).map((r) => r.ms);
  const p95 = lags.length ? lags[Math.min(lags.length - 1, Math.ceil(lags.length * 0.95) - 1)]! : 0;
  const open = byState.filter((s) => !FINAL_STATES.includes(s.state)).reduce((n, s) => n + s.n, 0);
  // Who made each row final: the settlement's own call, a provider event, the reconciliation (the
  // audit event of a report is written only when it moves the row).
  const finalBy = await client.$queryRawUnsafe<{ source: string; n: number }[]>(
    `SELECT inputs->>'source' AS source, count(*)::int AS n FROM "AuditEvent"
      WHERE action = 'refund.provider_state' AND inputs->>'state' = ANY($1::text[]) GROUP BY 1 ORDER BY 1`,
    FINAL_STATES,
  );
  return { byState, finalBy, repliesWithoutSucceeded: replies!.n, open, lagMaxMs: lags.at(-1) ?? 0, lagP95Ms: p95 };
}

/** The provider's events: how many, how many reached a server, and the attempts it took. */
export async function eventFigures(fake: TFakeStripeProcess) {
  const events = await fake.control<{ delivered: boolean; attempts: number }[]>("GET", "events");
  return {
    sent: events.length,
    delivered: events.filter((e) => e.delivered).length,
    retried: events.filter((e) => e.attempts > 1).length,
    attempts: events.reduce((n, e) => n + e.attempts, 0),
  };
}
