// Helpers for tests that need a ticket stopped at its approval: the real agent, on seeded data.
import type { PrismaClient } from "../generated/prisma/client";
import { runAgent } from "../lib/agent/run-agent";

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
