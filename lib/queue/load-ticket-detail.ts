// Everything the ticket page shows, in a fixed number of queries whatever the ticket's history:
// the ticket, its latest runs with their trace events, proposals, approvals with their decisions,
// ledger rows and its audit events in chain order.
import type { Db } from "../db";
import { db as defaultDb } from "../db";

export const RUNS_SHOWN = 10;

export async function loadTicketDetail(input: { ticketId: string; client?: Db }) {
  const client = input.client ?? defaultDb();
  const ticket = await client.ticket.findUnique({
    where: { id: input.ticketId },
    include: { assignee: { select: { id: true, name: true } } },
  });
  if (!ticket) return null;
  const [runs, approvals, auditEvents, order] = await Promise.all([
    client.agentRun.findMany({
      where: { ticketId: ticket.id },
      orderBy: { startedAt: "desc" },
      take: RUNS_SHOWN,
      include: {
        traceEvents: { orderBy: { step: "asc" } },
        proposals: true,
        startedBy: { select: { name: true } },
        // A person's judgement of the run, and the episode saved from it (lib/eval/annotate-run.ts).
        annotation: {
          select: {
            assigneeId: true,
            assignee: { select: { name: true } },
            verdict: true,
            reason: true,
            correctedReply: true,
            correctedAmountCents: true,
            annotatedAt: true,
            candidate: { select: { episodeId: true, status: true } },
          },
        },
      },
    }),
    client.approvalRequest.findMany({
      where: { ticketId: ticket.id },
      orderBy: { createdAt: "desc" },
      include: {
        decisions: { orderBy: { seat: "asc" }, include: { decider: { select: { name: true } } } },
        proposal: true,
        ledgerEntries: true,
        outbox: { select: { body: true, createdAt: true, deliveredAt: true } },
        editedBy: { select: { name: true } },
        editedFrom: { include: { proposal: true } },
      },
    }),
    client.auditEvent.findMany({ where: { ticketId: ticket.id }, orderBy: { seq: "asc" }, take: 500 }),
    ticket.orderRef ? orderNamed(client, ticket.orderRef) : null,
  ]);
  const runCount = await client.agentRun.count({ where: { ticketId: ticket.id } });
  return { ticket, runs, runCount, approvals, auditEvents, order };
}

export type TTicketDetail = NonNullable<Awaited<ReturnType<typeof loadTicketDetail>>>;

/** The order a reference names, as the agent reads it: case-insensitive through the upper(id) index, an exact match first. */
async function orderNamed(client: Db, ref: string) {
  const [hit] = await client.$queryRaw<
    { id: string }[]
  >`SELECT id FROM "Order" WHERE upper(id) = upper(${ref.trim()}) ORDER BY id = ${ref.trim()} DESC, id LIMIT 1`;
  return hit ? client.order.findUnique({ where: { id: hit.id }, include: { customer: true } }) : null;
}
