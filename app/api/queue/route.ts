// The queue's live refresh (app/(app)/live-queue.tsx polls it): one page, as the queue page renders it.
import { authedRoute } from "@/lib/auth/authed";
import { listTickets, queuePageToJson, ZQueueQuery } from "@/lib/intake/list-tickets";

export const dynamic = "force-dynamic";

export const GET = authedRoute({ area: "queue", input: ZQueueQuery }, async ({ input }) => {
  const page = await listTickets({ status: input.status, reason: input.reason, cursor: input.cursor });
  return Response.json(queuePageToJson(page), { headers: { "cache-control": "no-store" } });
});
