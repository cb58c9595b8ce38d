// A work view of the queue (queue-views.ts), oldest first: the ticket that has waited longest is at
// the top of the first page. Each view is read through an index in creation order and stops after
// one page (keyset over (createdAt, id), as the queue):
//
// - open, unassigned, handoff: one query per status on Ticket(status, createdAt), merged here (as
//   list-tickets.ts does), with the view's filter on top;
// - mine: Ticket(assigneeId, createdAt, id);
// - approval, specialist, stale: the pending requests (a partial unique index holds one per ticket, so they
//   are few next to the tickets) joined to their tickets.
import type { TicketStatus } from "../../generated/prisma/enums";
import type { Prisma } from "../../generated/prisma/client";
import { db as defaultDb, type Db } from "../db";
import { encodeCursor, type TKeysetCursor } from "../db/keyset";
import { loadApprovalVersions, type TApprovalVersions } from "../policy/approval-versions";
import { completeRows, QUEUE_PAGE_SIZE, ROW_SELECT, UNRESOLVED_STATUSES, type TQueuePage } from "./list-tickets";
import type { TQueueView } from "./queue-views";

const HANDOFF_VIEW_STATUSES = ["needs_human", "blocked"] as const satisfies readonly TicketStatus[];

type TWhere = Prisma.TicketWhereInput;

/** Where each view looks: the statuses read one by one (null: one query), and the filter on top. */
function viewFilter(
  view: TQueueView,
  userId: string,
  current: TApprovalVersions | null,
): { statuses: readonly TicketStatus[] | null; where: TWhere } {
  switch (view) {
    case "open":
      return { statuses: UNRESOLVED_STATUSES, where: {} };
    case "unassigned":
      return { statuses: UNRESOLVED_STATUSES, where: { assigneeId: null } };
    case "mine":
      return { statuses: null, where: { assigneeId: userId, status: { not: "resolved" } } };
    case "bypassed":
      return { statuses: ["bypassed"], where: {} };
    case "handoff":
      return { statuses: HANDOFF_VIEW_STATUSES, where: { approvals: { none: { status: "pending" } } } };
    case "approval":
      return { statuses: null, where: { approvals: { some: { status: "pending" } } } };
    case "specialist":
      return { statuses: null, where: { approvals: { some: { status: "pending", requiredRole: "SPECIALIST" } } } };
    case "stale": {
      // The same test as versionsChanged: any version other than the current one.
      const { policyVersion, agentVersion, corpusHash } = current!;
      return {
        statuses: null,
        where: {
          approvals: {
            some: {
              status: "pending",
              OR: [{ policyVersion: { not: policyVersion } }, { agentVersion: { not: agentVersion } }, { corpusHash: { not: corpusHash } }],
            },
          },
        },
      };
    }
  }
}

/** Rows after the cursor in oldest-first order ("newer"), or before it ("older", read backwards). */
function beyond(cursor: TKeysetCursor | undefined): TWhere {
  if (!cursor) return {};
  const { createdAt, id } = cursor;
  return cursor.direction === "newer"
    ? { createdAt: { gte: createdAt }, OR: [{ createdAt: { gt: createdAt } }, { createdAt, id: { gt: id } }] }
    : { createdAt: { lte: createdAt }, OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }] };
}

const oldestFirst = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export async function listView(input: {
  view: TQueueView;
  userId: string;
  cursor?: TKeysetCursor;
  pageSize?: number;
  client?: Db;
}): Promise<TQueuePage> {
  const client = input.client ?? defaultDb();
  const pageSize = input.pageSize ?? QUEUE_PAGE_SIZE;
  const asOf = new Date();
  // Forward in this order is towards newer tickets; a cursor pointing "older" pages back.
  const forward = (input.cursor?.direction ?? "newer") === "newer";
  const dir = forward ? ("asc" as const) : ("desc" as const);
  const orderBy = [{ createdAt: dir }, { id: dir }];
  const take = pageSize + 1;
  const current = input.view === "stale" ? (await loadApprovalVersions(client)).current : null;
  const { statuses, where } = viewFilter(input.view, input.userId, current);
  const base: TWhere = { ...where, ...beyond(input.cursor) };

  let fetched;
  if (statuses && statuses.length > 1) {
    const perStatus = await Promise.all(
      statuses.map((status) => client.ticket.findMany({ where: { ...base, status }, orderBy, take, select: ROW_SELECT })),
    );
    fetched = perStatus
      .flat()
      .sort((a, b) => (forward ? oldestFirst(a, b) : oldestFirst(b, a)))
      .slice(0, take);
  } else {
    fetched = await client.ticket.findMany({
      where: statuses ? { ...base, status: statuses[0] } : base,
      orderBy,
      take,
      select: ROW_SELECT,
    });
  }

  const more = fetched.length > pageSize;
  const rows = forward ? fetched.slice(0, pageSize) : fetched.slice(0, pageSize).reverse();
  if (!forward && !more && input.cursor) return listView({ ...input, cursor: undefined });
  const first = rows[0];
  const last = rows.at(-1);
  const hasEarlier = forward ? input.cursor !== undefined : more;
  const hasLater = forward ? more : true;
  return {
    rows: await completeRows(client, rows, asOf),
    // In a view the page before holds older tickets and the page after newer ones.
    olderCursor: hasEarlier && first ? encodeCursor({ direction: "older", createdAt: first.createdAt, id: first.id }) : null,
    newerCursor: hasLater && last ? encodeCursor({ direction: "newer", createdAt: last.createdAt, id: last.id }) : null,
    asOf,
    order: "oldest",
  };
}
