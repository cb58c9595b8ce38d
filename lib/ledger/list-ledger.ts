// The ledger as people read it: entries newest first, filtered by order, date range and actor, one
// keyset page at a time, with the count and the total of everything the filters match. The CSV
// export (export-ledger-csv.ts) reads the same filters through ledgerWhere.
// A row's actor is whoever executed it – the refund worker, for every refund since refunds became
// jobs – so each row also names its approvers, read from the approval's decisions: the people who
// approved it, in seat order, or the policy for a refund auto-approved within the dial.
import { z } from "zod";
import { plainText } from "../contracts/text";
import type { Prisma } from "../../generated/prisma/client";
import { db as defaultDb, type Db } from "../db";
import type { TRefundState } from "../contracts/reason-codes";
import { keysetOrder, keysetPage, keysetWhere, ZCursorParam, type TKeysetCursor } from "../db/keyset";

export const LEDGER_PAGE_SIZE = 50;

/** Actors that are not people: the filter names them by type, a person by user id. */
export const NON_PERSON_ACTORS = ["system", "agent", "api"] as const;

/** The approver of a refund auto-approved within the dial: the Actor filter's value for it, and its words. */
export const POLICY_APPROVER = { filter: "policy", words: "the policy, within the autonomy dial" } as const;

const blankAsUndefined = (value: unknown) => (value === "" ? undefined : value);
const DAY_MS = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ZLedgerFilters = z
  .object({
    orderId: z.preprocess(blankAsUndefined, plainText(z.string().trim().min(1).max(64)).optional()),
    /** Inclusive UTC days, YYYY-MM-DD. */
    from: z.preprocess(blankAsUndefined, z.iso.date({ message: "must be a date (YYYY-MM-DD)" }).optional()),
    to: z.preprocess(blankAsUndefined, z.iso.date({ message: "must be a date (YYYY-MM-DD)" }).optional()),
    /** "system", "agent", "api" (executors), "policy" (the approver within the dial), or a person's user id. */
    actor: z.preprocess(blankAsUndefined, plainText(z.string().trim().min(1).max(100)).optional()),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { path: ["to"], message: "must be on or after the start date" });
export type TLedgerFilters = z.output<typeof ZLedgerFilters>;

export const ZLedgerQuery = z.intersection(ZLedgerFilters, z.object({ cursor: ZCursorParam }));

export function ledgerWhere(filters: TLedgerFilters): Prisma.LedgerEntryWhereInput {
  const where: Prisma.LedgerEntryWhereInput = {};
  if (filters.orderId) where.orderId = filters.orderId;
  if (filters.from || filters.to) {
    where.createdAt = {
      ...(filters.from ? { gte: new Date(`${filters.from}T00:00:00.000Z`) } : {}),
      ...(filters.to ? { lt: new Date(Date.parse(`${filters.to}T00:00:00.000Z`) + DAY_MS) } : {}),
    };
  }
  if (filters.actor) where.OR = actorMatches(filters.actor);
  return where;
}

const approvedBy = (decision: Prisma.ApprovalDecisionWhereInput): Prisma.LedgerEntryWhereInput => ({
  approvalRequest: { decisions: { some: { decision: "approve", ...decision } } },
});

/** A row matches an actor who executed it or approved it: the worker executes, people approve. */
function actorMatches(actor: string): Prisma.LedgerEntryWhereInput[] {
  if (actor === POLICY_APPROVER.filter) return [approvedBy({ automatic: true })];
  if ((NON_PERSON_ACTORS as readonly string[]).includes(actor)) return [{ actorType: actor }];
  // deciderId is a uuid column: any other text would make the database refuse the whole query.
  return [{ actorId: actor }, ...(UUID.test(actor) ? [approvedBy({ deciderId: actor, automatic: false })] : [])];
}

export interface TLedgerRow {
  id: string;
  createdAt: Date;
  orderId: string;
  amountCents: number;
  currency: string;
  kind: string;
  actorType: string;
  actorId: string | null;
  /** The person's name when the actor is a user the database knows. */
  actorName: string | null;
  /** Who approved the refund, in seat order; empty for a row without an approval. */
  approvers: TLedgerApprover[];
  approvalRequestId: string | null;
  ticket: { id: string; number: number } | null;
  idempotencyKey: string;
  /** Where the refund was executed (`ledger-only`: the row is the whole effect). */
  provider: string;
  providerRefundId: string | null;
  /** The refund's state at the provider, forward only. */
  state: TRefundState;
  /** The provider's reason, when it failed or was canceled (REFUND_FAILURE_REASONS). */
  failureReason: string | null;
  stateChangedAt: Date;
}

export type TLedgerApprover = { kind: "person"; userId: string; name: string } | { kind: "policy" };

export interface TLedgerTotals {
  count: number;
  /** One sum per currency: amounts in different currencies are never added together. */
  byCurrency: { currency: string; amountCents: number; count: number }[];
}

const ROW_SELECT = {
  id: true,
  createdAt: true,
  orderId: true,
  amountCents: true,
  currency: true,
  kind: true,
  actorType: true,
  actorId: true,
  approvalRequestId: true,
  idempotencyKey: true,
  provider: true,
  providerRefundId: true,
  state: true,
  failureReason: true,
  stateChangedAt: true,
  approvalRequest: {
    select: {
      ticket: { select: { id: true, number: true } },
      decisions: { where: { decision: "approve" }, orderBy: { seat: "asc" }, select: { automatic: true, deciderId: true } },
    },
  },
} as const satisfies Prisma.LedgerEntrySelect;

type TSelected = Prisma.LedgerEntryGetPayload<{ select: typeof ROW_SELECT }>;

/** Rows as listed and exported: the names of actors and approvers resolved in one query for the whole batch. */
export async function toLedgerRows(client: Db, entries: TSelected[]): Promise<TLedgerRow[]> {
  const actorIds = entries.flatMap((e) => (e.actorType === "user" && e.actorId && UUID.test(e.actorId) ? [e.actorId] : []));
  const deciderIds = entries.flatMap((e) => (e.approvalRequest?.decisions ?? []).flatMap((d) => (d.deciderId ? [d.deciderId] : [])));
  const userIds = [...new Set([...actorIds, ...deciderIds])];
  const users = userIds.length ? await client.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } }) : [];
  const names = new Map(users.map((u) => [u.id, u.name]));
  return entries.map(({ approvalRequest, ...e }) => ({
    ...e,
    actorName: e.actorType === "user" && e.actorId ? (names.get(e.actorId) ?? null) : null,
    approvers: (approvalRequest?.decisions ?? []).map((d) => approverOf(d, names)),
    ticket: approvalRequest?.ticket ?? null,
  }));
}

function approverOf(decision: { automatic: boolean; deciderId: string | null }, names: Map<string, string>): TLedgerApprover {
  if (decision.automatic || !decision.deciderId) return { kind: "policy" };
  // A decider's user row cannot be deleted (onDelete: Restrict); the id stands in only if that ever changes.
  return { kind: "person", userId: decision.deciderId, name: names.get(decision.deciderId) ?? decision.deciderId };
}

/** Reads up to `take` entries beyond the cursor, in the cursor's direction. */
export async function readLedgerBatch(input: {
  client: Db;
  filters: TLedgerFilters;
  cursor?: TKeysetCursor;
  take: number;
}): Promise<TSelected[]> {
  return input.client.ledgerEntry.findMany({
    where: { AND: [ledgerWhere(input.filters), keysetWhere(input.cursor)] },
    orderBy: keysetOrder(input.cursor?.direction),
    take: input.take,
    select: ROW_SELECT,
  });
}

export async function listLedger(input: { filters?: TLedgerFilters; cursor?: TKeysetCursor; pageSize?: number; client?: Db }): Promise<{
  rows: TLedgerRow[];
  newerCursor: string | null;
  olderCursor: string | null;
  totals: TLedgerTotals;
}> {
  const client = input.client ?? defaultDb();
  const filters = input.filters ?? {};
  const pageSize = input.pageSize ?? LEDGER_PAGE_SIZE;
  const [fetched, groups] = await Promise.all([
    readLedgerBatch({ client, filters, cursor: input.cursor, take: pageSize + 1 }),
    client.ledgerEntry.groupBy({
      by: ["currency"],
      where: ledgerWhere(filters),
      _sum: { amountCents: true },
      _count: { _all: true },
      orderBy: { currency: "asc" },
    }),
  ]);
  const page = keysetPage(fetched, pageSize, input.cursor);
  if (page.reachedNewest && input.cursor) return listLedger({ ...input, cursor: undefined });
  const byCurrency = groups.map((g) => ({ currency: g.currency, amountCents: Number(g._sum.amountCents ?? 0), count: g._count._all }));
  return {
    rows: await toLedgerRows(client, page.rows),
    newerCursor: page.newerCursor,
    olderCursor: page.olderCursor,
    totals: { count: byCurrency.reduce((n, g) => n + g.count, 0), byCurrency },
  };
}

/** The people who may appear as ledger actors, for the filter's choices. */
export async function listLedgerActors(input: { client?: Db } = {}) {
  const client = input.client ?? defaultDb();
  return client.user.findMany({
    where: { role: { in: ["REVIEWER", "SPECIALIST", "ADMIN"] } },
    orderBy: { name: "asc" },
    select: { id: true, name: true, email: true },
  });
}
