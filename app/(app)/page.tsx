import type { Metadata } from "next";
import { KeyboardShortcuts } from "@/components/keyboard";
import { PageHeader } from "@/components/page-header";
import { requireRole } from "@/lib/auth/session";
import { MAX_BULK_TICKETS } from "@/lib/agent/batches";
import { MAX_BATCH_DECISIONS } from "@/lib/approvals/decide-batch";
import { mayUse } from "@/lib/contracts/roles";
import { listAssignees } from "@/lib/queue/list-assignees";
import { listTickets, queuePageToJson, ZQueueQuery } from "@/lib/queue/list-tickets";
import { searchTickets } from "@/lib/queue/search-tickets";
import { listView } from "@/lib/queue/list-view";
import { VIEW_DESCRIPTIONS, VIEW_LABELS } from "@/lib/queue/queue-views";
import { viewCounts } from "@/lib/queue/view-counts";
import { QueueViews } from "./queue-views";
import { LiveQueue } from "./live-queue";
import { QueueFilters } from "./queue-filters";
import { QueueSearch } from "./queue-search";

export const metadata: Metadata = { title: "Queue" };

type TSearchParams = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Each parameter on its own: a stale cursor in a bookmark drops the cursor, not the filters. */
function readQuery(params: TSearchParams) {
  const { shape } = ZQueueQuery;
  const status = shape.status.safeParse(first(params.status));
  const reason = shape.reason.safeParse(first(params.reason));
  const cursor = shape.cursor.safeParse(first(params.cursor));
  const q = shape.q.safeParse(first(params.q));
  const view = shape.view.safeParse(first(params.view));
  return {
    view: view.success ? view.data : undefined,
    q: q.success ? q.data : undefined,
    status: status.success ? status.data : undefined,
    reason: reason.success ? reason.data : undefined,
    cursor: cursor.success ? cursor.data : undefined,
    cursorToken: cursor.success && cursor.data ? first(params.cursor) : undefined,
    ignored: !status.success || !reason.success || !cursor.success || !q.success || !view.success,
  };
}

export default async function QueuePage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  const user = await requireRole("queue");
  const query = readQuery(await searchParams);
  const mayAssign = mayUse(user.role, "assign");
  const [page, counts, people] = await Promise.all([
    query.q
      ? searchTickets({ q: query.q, cursor: query.cursor })
      : query.view
        ? listView({ view: query.view, userId: user.id, cursor: query.cursor })
        : listTickets({ status: query.status, reason: query.reason, cursor: query.cursor }),
    viewCounts({ userId: user.id }),
    mayAssign ? listAssignees() : [],
  ]);
  const { asOf: countedAt, ...viewSizes } = counts;
  return (
    <>
      <PageHeader
        title="Queue"
        description={
          query.q
            ? "Every ticket matching the search, resolved ones included, newest first."
            : query.view
              ? VIEW_DESCRIPTIONS[query.view]
              : "Tickets waiting for a person, newest first: drafts to countersign, refunds to approve, hand-offs to resolve."
        }
      />
      <KeyboardShortcuts scope="queue" />
      <QueueSearch key={query.q ?? ""} q={query.q} />
      <QueueViews counts={viewSizes} countedAt={countedAt.toISOString()} current={query.q ? null : (query.view ?? "waiting")} />
      {query.q || query.view ? null : (
        <QueueFilters key={`${query.status ?? ""}|${query.reason ?? ""}`} status={query.status} reason={query.reason} />
      )}
      {query.ignored ? (
        <p role="status" className="mb-3 rounded-md border border-slate-200 bg-white px-3 py-2 text-[13px] text-slate-600">
          Part of the address was not understood and was ignored: showing the filters below.
        </p>
      ) : null}
      <LiveQueue
        // A new view, search or filter starts a new selection; paging keeps it.
        key={`${query.q ?? ""}|${query.view ?? ""}|${query.status ?? ""}|${query.reason ?? ""}`}
        bulk={{
          mayRun: mayUse(user.role, "runAgent"),
          mayAssign,
          mayApprove: mayUse(user.role, "approve"),
          decideLimit: MAX_BATCH_DECISIONS,
          people,
          limit: MAX_BULK_TICKETS,
        }}
        params={
          query.q
            ? { q: query.q, cursor: query.cursorToken }
            : query.view
              ? { view: query.view, cursor: query.cursorToken }
              : { status: query.status, reason: query.reason, cursor: query.cursorToken }
        }
        initialData={queuePageToJson(page)}
        filtered={Boolean(query.q || query.view || query.status || query.reason)}
        caption={query.view && !query.q ? `${VIEW_LABELS[query.view]}: ${VIEW_DESCRIPTIONS[query.view]}` : undefined}
      />
    </>
  );
}
