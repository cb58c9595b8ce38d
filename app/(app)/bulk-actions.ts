"use server";
// The queue's bulk actions: select tickets, then run the agent on them, simulate, or assign them. Each
// starts a batch that the job queue works one ticket at a time (lib/agent/batches.ts, which checks the
// role again); progress and per-ticket results are read from GET /api/batches.
import { z } from "zod";
import { authedAction } from "@/lib/auth/authed";
import { MAX_BULK_TICKETS, startBatch } from "@/lib/agent/batches";
import { ZQueueQuery } from "@/lib/queue/list-tickets";
import { selectTicketsInView } from "@/lib/queue/select-tickets";
import { QUEUES } from "@/lib/jobs/queue";
import { processWorker } from "@/lib/jobs/worker";

// Ids arrive as repeated form fields or an array.
const ZTicketIds = z.preprocess(
  (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
  z.array(z.uuid()).min(1, "Select at least one ticket.").max(MAX_BULK_TICKETS, `Select at most ${MAX_BULK_TICKETS} tickets at once.`),
);

const ZBulkRun = z.object({ ticketIds: ZTicketIds, mode: z.enum(["live", "simulate"]) });

export const startBulkRunAction = authedAction({ area: "runAgent", input: ZBulkRun }, async ({ input, user }) => {
  const batch = await startBatch({
    ticketIds: input.ticketIds,
    work: { kind: "bulk", mode: input.mode },
    actor: user,
    limit: MAX_BULK_TICKETS,
  });
  processWorker()?.nudge(QUEUES.agentRun);
  return batch;
});

const ZBulkAssign = z.object({ ticketIds: ZTicketIds, assigneeId: z.uuid({ message: "Choose who gets the tickets." }) });

export const startBulkAssignAction = authedAction({ area: "assign", input: ZBulkAssign }, async ({ input, user }) => {
  const batch = await startBatch({
    ticketIds: input.ticketIds,
    work: { kind: "assign", assigneeId: input.assigneeId },
    actor: user,
    limit: MAX_BULK_TICKETS,
  });
  processWorker()?.nudge(QUEUES.bulkAssign);
  return batch;
});

const ZSelectAll = ZQueueQuery.omit({ cursor: true });

/** Every ticket of the view the person is looking at, up to what one bulk action takes. */
export const selectAllInViewAction = authedAction({ area: "queue", input: ZSelectAll }, async ({ input, user }) =>
  selectTicketsInView({ query: input, userId: user.id, limit: MAX_BULK_TICKETS }),
);
