// The queue: tickets waiting for a person, newest first, one page of 50 at a time. Built to stay
// fast with 100,000+ tickets: every query is an index range scan that stops after one page.
//
// - A set of statuses is read as one query per status on Ticket(status, createdAt desc), each
//   stopping after pageSize + 1 rows, merged here. A single `status IN (…) ORDER BY createdAt` query
//   cannot walk that index in order: PostgreSQL would collect every matching row and sort it.
// - A reason filter reads Ticket(reason, createdAt desc) in order, with the status as a filter (a
//   reason belongs to one status, so the filter rarely discards anything).
// - Paging is keyset over (createdAt, id) (lib/db/keyset.ts): no OFFSET.
// - Proposed amounts, customer names and assignees are fetched for the rows on the page only.
import { z } from "zod";
import { plainText } from "../contracts/text";
import type { TicketStatus } from "../../generated/prisma/enums";
import { STOP_REASONS, type TStopReason } from "../contracts/reason-codes";
import { db as defaultDb, type Db } from "../db";
import type { Role } from "../contracts/roles";
import { loadApprovalVersions, versionsChanged } from "../policy/approval-versions";
import { QUEUE_VIEWS, slaOf, type TSla } from "./queue-views";
import { SEARCH_MAX_LENGTH } from "./search-terms";
import { compareNewestFirst, keysetOrder, keysetPage, keysetWhere, ZCursorParam, type TKeysetCursor } from "../db/keyset";

export const QUEUE_PAGE_SIZE = 50;

/** What "waiting for a person" means by default: new tickets nobody has run the agent on yet, and
 * tickets the agent stopped on and handed over. */
export const AWAITING_STATUSES = ["open", "needs_human", "blocked", "bypassed"] as const satisfies readonly TicketStatus[];
/** Every status but `resolved`: a person has not closed the ticket yet. */
export const UNRESOLVED_STATUSES = [
  "open",
  "running",
  "bypassed",
  "blocked",
  "needs_human",
  "approved",
  "auto_approved",
  "completed",
] as const satisfies readonly TicketStatus[];

export const QUEUE_STATUS_FILTERS = ["awaiting", "all", ...UNRESOLVED_STATUSES] as const;
export type TQueueStatusFilter = (typeof QUEUE_STATUS_FILTERS)[number];

// An empty form field ("?status=") means "not filtered".
const blankAsUndefined = (value: unknown) => (value === "" ? undefined : value);

export const ZQueueQuery = z.object({
  status: z.preprocess(blankAsUndefined, z.enum(QUEUE_STATUS_FILTERS).optional()),
  reason: z.preprocess(blankAsUndefined, z.enum(STOP_REASONS).optional()),
  /** A work view (queue-views.ts), oldest first; the status and reason filters do not apply. */
  view: z.preprocess(blankAsUndefined, z.enum(QUEUE_VIEWS).optional()),
  /** Search text: when given, the page is search-tickets.ts's answer and the filters do not apply. */
  q: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    plainText(z.string().trim().max(SEARCH_MAX_LENGTH)).optional(),
  ),
  cursor: ZCursorParam,
});
export type TQueueQuery = z.output<typeof ZQueueQuery>;

export function statusesOf(filter: TQueueStatusFilter | undefined): readonly TicketStatus[] {
  if (!filter || filter === "awaiting") return AWAITING_STATUSES;
  if (filter === "all") return UNRESOLVED_STATUSES;
  return [filter];
}

export interface TQueueRow {
  id: string;
  number: number;
  subject: string;
  customerEmail: string;
  customerName: string | null;
  orderRef: string | null;
  status: TicketStatus;
  reason: string | null;
  createdAt: Date;
  assigneeName: string | null;
  /** The role a request waiting on the ticket needs, when one waits. */
  pendingRole: Role | null;
  /** The waiting request was made under a policy or agent that has changed: it can only be run again. */
  pendingStale: boolean;
  /** The SLA the ticket is held to now (queue-views.ts), its due time as ISO text. */
  sla: (Omit<TSla, "dueAt"> & { dueAt: string }) | null;
  /** The latest live (not simulated) refund proposal of the ticket. */
  proposed: { amountCents: number; currency: string } | null;
}

export interface TQueuePage {
  rows: TQueueRow[];
  newerCursor: string | null;
  olderCursor: string | null;
  /** When the page was read: ages are measured from here, so server and browser render the same. */
  asOf: Date;
  /** Which way the rows run: the queue and search newest first, the views oldest first. */
  order?: "newest" | "oldest";
  /** Search results only: what the page marks in each row, and each ticket's body around its match. */
  highlight?: string[];
  snippets?: Record<string, string>;
}

export const ROW_SELECT = {
  id: true,
  number: true,
  subject: true,
  customerEmail: true,
  orderRef: true,
  status: true,
  reason: true,
  createdAt: true,
  assignee: { select: { name: true } },
} as const;

export async function listTickets(input: {
  status?: TQueueStatusFilter;
  reason?: TStopReason;
  cursor?: TKeysetCursor;
  pageSize?: number;
  client?: Db;
}): Promise<TQueuePage> {
  const client = input.client ?? defaultDb();
  const pageSize = input.pageSize ?? QUEUE_PAGE_SIZE;
  const asOf = new Date();
  const statuses = statusesOf(input.status);
  const direction = input.cursor?.direction ?? "older";
  const take = pageSize + 1;
  const orderBy = keysetOrder(direction);
  const beyond = keysetWhere(input.cursor);

  let fetched;
  if (input.reason || statuses.length === 1) {
    fetched = await client.ticket.findMany({
      where: {
        ...beyond,
        status: statuses.length === 1 ? statuses[0] : { in: [...statuses] },
        ...(input.reason ? { reason: input.reason } : {}),
      },
      orderBy,
      take,
      select: ROW_SELECT,
    });
  } else {
    const perStatus = await Promise.all(
      statuses.map((status) => client.ticket.findMany({ where: { ...beyond, status }, orderBy, take, select: ROW_SELECT })),
    );
    fetched = perStatus
      .flat()
      .sort((a, b) => (direction === "older" ? compareNewestFirst(a, b) : compareNewestFirst(b, a)))
      .slice(0, take);
  }

  const page = keysetPage(fetched, pageSize, input.cursor);
  // Paging back up reached the top: show the top page itself, which also lists what arrived since.
  if (page.reachedNewest && input.cursor) return listTickets({ ...input, cursor: undefined });

  return { rows: await completeRows(client, page.rows, asOf), newerCursor: page.newerCursor, olderCursor: page.olderCursor, asOf };
}

export type TFetchedRow = Omit<TQueueRow, "customerName" | "assigneeName" | "proposed" | "pendingRole" | "pendingStale" | "sla"> & {
  assignee: { name: string } | null;
};

/** A page's rows with what the page shows beside them: the customer's name, the assignee, the latest
 * live proposal, the request waiting and the SLA as of `asOf`. A fixed number of queries for the
 * whole page, whatever its size (the search and the views share it). */
export async function completeRows(client: Db, rows: TFetchedRow[], asOf: Date): Promise<TQueueRow[]> {
  const ids = rows.map((r) => r.id);
  const emails = [...new Set(rows.map((r) => r.customerEmail))];
  const [proposals, customers, pending, versions] = ids.length
    ? await Promise.all([
        client.refundProposal.findMany({
          where: { ticketId: { in: ids }, simulated: false },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          select: { ticketId: true, amountCents: true, currency: true },
        }),
        client.customer.findMany({ where: { email: { in: emails } }, select: { email: true, name: true } }),
        client.approvalRequest.findMany({
          where: { ticketId: { in: ids }, status: "pending" },
          select: { ticketId: true, requiredRole: true, policyVersion: true, agentVersion: true, corpusHash: true },
        }),
        loadApprovalVersions(client),
      ])
    : [[], [], [], null];
  const pendingRole = new Map(pending.map((p) => [p.ticketId, p.requiredRole]));
  const current = versions?.current ?? null;
  const settings = versions?.settings ?? null;
  const stale = new Set(current ? pending.filter((p) => versionsChanged(p, current)).map((p) => p.ticketId) : []);
  const targets = settings ? { approvalHours: settings["queue.slaApprovalHours"], handoffHours: settings["queue.slaHandoffHours"] } : null;
  const latest = new Map<string, { amountCents: number; currency: string }>();
  for (const p of proposals) if (!latest.has(p.ticketId)) latest.set(p.ticketId, { amountCents: p.amountCents, currency: p.currency });
  const names = new Map(customers.map((c) => [c.email, c.name]));

  return rows.map(({ assignee, ...row }) => {
    const role = pendingRole.get(row.id) ?? null;
    const sla = targets ? slaOf({ createdAt: row.createdAt, status: row.status, pendingRole: role }, targets, asOf) : null;
    return {
      ...row,
      customerName: names.get(row.customerEmail) ?? null,
      assigneeName: assignee?.name ?? null,
      pendingRole: role,
      pendingStale: stale.has(row.id),
      sla: sla ? { ...sla, dueAt: sla.dueAt.toISOString() } : null,
      proposed: latest.get(row.id) ?? null,
    };
  });
}

/** The page as JSON (dates as ISO strings): what GET /api/queue answers and the page hydrates with. */
export type TQueuePageJson = Omit<TQueuePage, "rows" | "asOf"> & {
  asOf: string;
  rows: (Omit<TQueueRow, "createdAt"> & { createdAt: string })[];
};

export function queuePageToJson(page: TQueuePage): TQueuePageJson {
  return { ...page, asOf: page.asOf.toISOString(), rows: page.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
}
