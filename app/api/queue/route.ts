// The queue's live refresh (app/(app)/live-queue.tsx polls it): one page, as the queue page renders it;
// with `q`, a page of search results; with `view`, a page of that work view.
import { authedRoute } from "@/lib/auth/authed";
import { listTickets, queuePageToJson, ZQueueQuery } from "@/lib/queue/list-tickets";
import { searchTickets } from "@/lib/queue/search-tickets";
import { listView } from "@/lib/queue/list-view";

export const dynamic = "force-dynamic";

export const GET = authedRoute({ area: "queue", input: ZQueueQuery }, async ({ input, user }) => {
  const page = input.q
    ? await searchTickets({ q: input.q, cursor: input.cursor })
    : input.view
      ? await listView({ view: input.view, userId: user.id, cursor: input.cursor })
      : await listTickets({ status: input.status, reason: input.reason, cursor: input.cursor });
  return Response.json(queuePageToJson(page), { headers: { "cache-control": "no-store" } });
});
