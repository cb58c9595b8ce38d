// Fixtures for the browser suite only (scripts/e2e-server.ts): one order and one ticket per scenario,
// so that scenarios never share money or approvals and can run in any order.
import type { PrismaClient } from "../../generated/prisma/client";
import { createTicket } from "../../lib/intake/create-ticket";
import { scriptedPlanner } from "../../lib/agent/planner";
import { evidenceQuestion, rulePlanner } from "../../lib/agent/rule-planner";
import { runAgent } from "../../lib/agent/run-agent";
import { JOBS } from "../../lib/jobs/definitions";
import { recordFailedJob } from "../../lib/jobs/record-failed-job";

export const E2E_SCENARIOS = [
  "approve",
  "double",
  "resubmit",
  "reject",
  "stale",
  "simulate",
  "lead",
  "signed-out",
  "laptop",
  "history",
  "keyboard",
  "a11y",
  "layout",
  "batch-1",
  "batch-2",
  "batch-3",
  "batch-4",
  "batch-5",
  "edit",
  "raise",
  "two-person",
  "trace",
  // The people a ledger row names as its approvers (e2e/ledger-approvers.spec.ts).
  "ledger",
  // What the customer reads and where citations lead (e2e/replies-and-citations.spec.ts).
  "lowered-reply",
  "two-citations",
  "hand-reply",
  "claimed",
  // What the decision rules offer and what a decided ticket shows (e2e/decision-rules.spec.ts).
  "unpayable",
  "rejected-by-hand",
  // A reply edited to state another amount (e2e/edit-and-two-person.spec.ts).
  "edited-reply",
  // A refund's state at the payment provider on the ledger: one that succeeds, one that fails (e2e/ledger-provider-state.spec.ts).
  "stripe-succeeds",
  "stripe-fails",
  // Conversations (e2e/conversations.spec.ts): a follow-up naming the customer's other order, a draft sent back.
  "follow-up",
  "send-back",
] as const;

/** What each scenario's order costs: a 79 USD tablet, unless the scenario is about a larger refund. */
const ORDER_OF: Partial<Record<(typeof E2E_SCENARIOS)[number], { item: string; noun: string; amountCents: number }>> = {
  laptop: { item: "Nimbus 14 laptop", noun: "Laptop", amountCents: 65000 },
  "two-person": { item: "Vista 65-inch OLED TV", noun: "TV", amountCents: 120000 },
};

export async function seedE2eFixtures(client: PrismaClient): Promise<number> {
  let created = 0;
  for (const [i, scenario] of E2E_SCENARIOS.entries()) {
    const externalId = `e2e-${scenario}`;
    if (await client.ticket.findUnique({ where: { externalId }, select: { id: true } })) continue;
    const what = ORDER_OF[scenario] ?? { item: "Aurora 10-inch tablet", noun: "Tablet", amountCents: 7900 };
    const n = String(i + 1).padStart(2, "0");
    const customer = await client.customer.create({
      data: { id: `CUS-E2E-${n}`, email: `e2e-${scenario}@example.net`, name: `Casey ${scenario}` },
    });
    const order = await client.order.create({
      data: {
        id: `ORD-E2E-${n}`,
        customerId: customer.id,
        item: what.item,
        category: "electronics",
        amountCents: what.amountCents,
        placedAt: new Date(Date.now() - 9 * 86_400_000),
        deliveredAt: new Date(Date.now() - 6 * 86_400_000),
      },
    });
    await client.$transaction((tx) =>
      createTicket(
        {
          externalId,
          subject: `${what.noun} arrived with a cracked screen (${scenario})`,
          body: `My order ${order.id} arrived with a cracked screen. Can I get a refund?`,
          customerEmail: customer.email,
          orderRef: order.id,
          source: "seed",
        },
        { type: "system", id: "e2e-fixtures" },
        tx,
      ),
    );
    created++;
  }
  // The "history" order's second ticket, from the same customer: its page shows what the first one got.
  created += await secondTicket(client, "history", {
    externalId: "e2e-history-followup",
    subject: "Following up on my tablet",
    body: (order) => `Any news about order ${order}?`,
  });
  // The "unpayable" order's second ticket: once the first is refunded in full, nothing remains for it.
  created += await secondTicket(client, "unpayable", {
    externalId: "e2e-unpayable-second",
    subject: "Tablet screen cracked, asking again (unpayable)",
    body: (order) => `My order ${order} arrived with a cracked screen. Can I get a refund?`,
  });
  // The "follow-up" customer's second order, which their follow-up names instead of the first.
  if (!(await client.order.findUnique({ where: { id: FOLLOW_UP_ORDER }, select: { id: true } }))) {
    const first = await client.order.findFirstOrThrow({ where: { customer: { email: "e2e-follow-up@example.net" } } });
    await client.order.create({ data: { ...first, id: FOLLOW_UP_ORDER } });
    created++;
  }
  return created;
}

/** The order the "follow-up" scenario's customer names in their follow-up. */
export const FOLLOW_UP_ORDER = "ORD-E2E-702";

/** A second ticket from a scenario's customer about the same order: 1 if it was made, 0 if it was there. */
async function secondTicket(
  client: PrismaClient,
  scenario: string,
  ticket: { externalId: string; subject: string; body: (orderId: string) => string },
): Promise<number> {
  if (await client.ticket.findUnique({ where: { externalId: ticket.externalId }, select: { id: true } })) return 0;
  const email = `e2e-${scenario}@example.net`;
  const order = await client.order.findFirstOrThrow({ where: { customer: { email } } });
  const input = {
    externalId: ticket.externalId,
    subject: ticket.subject,
    body: ticket.body(order.id),
    customerEmail: email,
    orderRef: order.id,
    source: "seed",
  } as const;
  await client.$transaction((tx) => createTicket(input, { type: "system", id: "e2e-fixtures" }, tx));
  return 1;
}

/**
 * Two simulated runs of the "trace" scenario's ticket, for its trace and the page comparing them
 * (e2e/trace.spec.ts): first a scripted planner that reports tokens as a model would and asks for
 * another customer's order (the policy rewrites that step) and never proposes a refund; then the
 * rule planner. Simulate mode, so neither leaves an approval or a refund. Returns the runs made.
 */
export async function seedE2eTraceRuns(client: PrismaClient, externalId = "e2e-trace"): Promise<number> {
  const ticket = await client.ticket.findUniqueOrThrow({ where: { externalId } });
  if (await client.agentRun.count({ where: { ticketId: ticket.id } })) return 0;
  const usage = (promptTokens: number, completionTokens: number) => ({ usage: { promptTokens, completionTokens } });
  const scripted = scriptedPlanner(
    [
      { decision: { action: "get_policy_evidence", args: { question: evidenceQuestion(ticket) } }, ...usage(812, 46) },
      { decision: { action: "lookup_order", args: { order_id: "ORD-1001" } }, ...usage(1240, 38) },
      { decision: { action: "draft_reply", args: {} }, ...usage(1310, 22) },
      {
        decision: { action: "request_human_approval", args: { reason: "Not sure a refund applies: a person should decide." } },
        ...usage(1502, 41),
      },
    ],
    { wrapped: true },
  );
  await runAgent({ ticketId: ticket.id, mode: "simulate", planner: scripted, client });
  await runAgent({ ticketId: ticket.id, mode: "simulate", planner: rulePlanner, client });
  return 2;
}

/** Jobs that failed for good on a transient error (the database went away mid-sweep), as an admin
 * finds them on the jobs page; retried, they succeed. One per spec that retries one. */
export const E2E_FAILED_JOBS = [
  { id: "0e2e0000-0000-4000-8000-00000000f001", queue: "sweep-runs", error: "Connection terminated unexpectedly" },
  { id: "0e2e0000-0000-4000-8000-00000000f002", queue: "sweep-runs", error: "Connection terminated unexpectedly" },
] as const;

export async function seedE2eFailedJobs(client: PrismaClient): Promise<number> {
  let created = 0;
  for (const job of E2E_FAILED_JOBS)
    if (await recordFailedJob({ job: JOBS[job.queue], data: {}, id: job.id, error: job.error, client })) created++;
  return created;
}

/**
 * Every order paid at the payment provider: `pay` makes the payment (a PaymentIntent at the fake
 * Stripe) for an order's amount and answers its id, which the order keeps as its paymentReference.
 */
export async function seedE2ePayments(client: PrismaClient, pay: (order: { amount: number; currency: string }) => string): Promise<number> {
  const orders = await client.order.findMany({
    where: { amountCents: { gt: 0 } },
    select: { id: true, amountCents: true, currency: true },
  });
  for (const order of orders) {
    const paymentReference = pay({ amount: order.amountCents, currency: order.currency.toLowerCase() });
    await client.order.update({ where: { id: order.id }, data: { paymentReference } });
  }
  return orders.length;
}
