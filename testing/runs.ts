// Helpers for tests that need a ticket stopped at its approval: the real agent, on seeded data.
import type { PrismaClient } from "../generated/prisma/client";
import { runAgent } from "../lib/agent/run-agent";
import { createTicket } from "../lib/intake/create-ticket";

export async function ticketId(client: PrismaClient, externalId: string): Promise<string> {
  return (await client.ticket.findUniqueOrThrow({ where: { externalId } })).id;
}

/** Runs the rule planner on a seeded ticket and returns its pending approval request. */
export async function pendingApproval(client: PrismaClient, externalId: string) {
  const run = await runAgent({ ticketId: await ticketId(client, externalId), client });
  if (!run.approval?.id) throw new Error(`${externalId}: the run stopped with ${run.status}/${run.reason}, no approval`);
  return client.approvalRequest.findUniqueOrThrow({ where: { id: run.approval.id } });
}

export async function user(client: PrismaClient, role: "REVIEWER" | "SPECIALIST" | "LEAD" | "ADMIN") {
  const u = await client.user.findFirstOrThrow({ where: { role } });
  return { id: u.id, role: u.role };
}

let people = 0;
/** Another person of `role` (the seed has one of each): for rules that need several different people. */
export async function newUser(client: PrismaClient, role: "REVIEWER" | "SPECIALIST" | "LEAD" | "ADMIN") {
  const n = ++people;
  const u = await client.user.create({
    data: { email: `person-${n}-${role.toLowerCase()}@example.net`, name: `Person ${n}`, role, passwordHash: "x" },
  });
  return { id: u.id, role: u.role };
}

let worlds = 0;
/** A customer of their own with a delivered tablet order (79 USD unless told): an unused order. */
export async function freshOrder(client: PrismaClient, amountCents = 7_900) {
  const n = 7000 + ++worlds; // unique within the process, and each test file has a database of its own
  const customer = await client.customer.create({ data: { id: `CUS-${n}`, email: `customer-${n}@example.net`, name: `Customer ${n}` } });
  const order = await client.order.create({
    data: {
      id: `ORD-${n}`,
      customerId: customer.id,
      item: "Aurora 10-inch tablet",
      category: "electronics",
      amountCents,
      placedAt: new Date(Date.now() - 15 * 86_400_000),
      deliveredAt: new Date(Date.now() - 12 * 86_400_000),
    },
  });
  return { email: customer.email, orderId: order.id };
}

/** A form ticket from `world`'s customer about their order, in these words; its id. */
export async function ticketFrom(
  client: PrismaClient,
  world: { email: string; orderId: string },
  words: { subject: string; body: string },
): Promise<string> {
  const input = { ...words, customerEmail: world.email, orderRef: world.orderId, source: "form" } as const;
  const t = await client.$transaction((tx) => createTicket(input, { type: "system" }, tx));
  return t.id;
}

/** A ticket about that order's cracked screen: the rule planner drafts it and proposes 79 USD. */
export function tabletTicket(client: PrismaClient, world: { email: string; orderId: string }): Promise<string> {
  return ticketFrom(client, world, {
    subject: "Tablet arrived with a cracked screen",
    body: `Hi, my Aurora tablet (order ${world.orderId}) arrived with a cracked screen. Can I get a refund?`,
  });
}

/** A ticket saying the store sent the wrong item: no document covers it, and the passages found answer
 * a damaged item's question, not this one. */
export function wrongItemTicket(client: PrismaClient, world: { email: string; orderId: string }): Promise<string> {
  return ticketFrom(client, world, {
    subject: "Wrong item",
    body: `You sent me the wrong item in my order ${world.orderId}. Can I still return it?`,
  });
}

/** Runs the rule planner live on a ticket and returns the pending request it stopped with. */
export async function approvalFor(client: PrismaClient, ticketId: string) {
  const run = await runAgent({ ticketId, client });
  if (!run.approval?.id) throw new Error(`run stopped with ${run.status}/${run.reason}, no approval`);
  return client.approvalRequest.findUniqueOrThrow({ where: { id: run.approval.id } });
}
