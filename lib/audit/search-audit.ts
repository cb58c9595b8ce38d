// Audit search: events newest first (by seq), filtered by ticket, actor, action and time, one keyset
// page at a time. Each filter rides an index of AuditEvent: (ticketId, seq), (actorId, seq),
// (action, seq) and (at).
import { z } from "zod";
import { plainText } from "../contracts/text";
import type { Prisma } from "../../generated/prisma/client";
import { findTicket } from "../tickets/find-ticket";
import { loadAuditNames, mentionedUserIds } from "./audit-names";
import { db as defaultDb, type Db } from "../db";

export const AUDIT_PAGE_SIZE = 100;
export const ACTOR_TYPES = ["user", "agent", "system", "api"] as const;

const blankAsUndefined = (value: unknown) => (value === "" ? undefined : value);
// What <input type="datetime-local"> sends: minutes, optionally seconds and milliseconds. Read as UTC.
const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
export const ZInstant = z.preprocess(
  blankAsUndefined,
  z
    .string()
    .regex(LOCAL_DATETIME, "must be a date and time (YYYY-MM-DDTHH:MM, UTC)")
    .refine((v) => !Number.isNaN(Date.parse(`${v}Z`)), "is not a real date and time")
    .optional(),
);
const ZSeq = z.preprocess(
  blankAsUndefined,
  z
    .string()
    .regex(/^\d{1,18}$/, "must be an event number")
    .optional(),
);

export const ZAuditQuery = z
  .object({
    /** A ticket number ("12" or "#12"), id or external id. */
    ticket: z.preprocess(blankAsUndefined, plainText(z.string().trim().min(1).max(200)).optional()),
    /** An actor type (user, agent, system, api), a person's email or name, or an actor id. */
    actor: z.preprocess(blankAsUndefined, plainText(z.string().trim().min(1).max(200)).optional()),
    /** An action or the start of one: "refund" finds refund.executed and refund.blocked_…. */
    action: z.preprocess(blankAsUndefined, plainText(z.string().trim().min(1).max(100)).optional()),
    from: ZInstant,
    to: ZInstant,
    /** Events after this seq (the next page) or before it (the previous page). */
    after: ZSeq,
    before: ZSeq,
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["to"], message: "must be on or after the start" });
export type TAuditQuery = z.output<typeof ZAuditQuery>;

export interface TAuditRow {
  seq: bigint;
  at: Date;
  actorType: string;
  actorId: string | null;
  actorName: string | null;
  action: string;
  subjectType: string;
  subjectId: string | null;
  ticket: { id: string; number: number } | null;
  inputs: Prisma.JsonValue;
  policyDecision: Prisma.JsonValue;
  idempotencyKey: string | null;
  /** The names of the people the event mentions (its actor, an assignee, a person changed), by id. */
  names: ReadonlyMap<string, string>;
}

export interface TAuditResult {
  events: TAuditRow[];
  /** seq cursors for the pages before and after this one (null when there is none). */
  earlierBefore: string | null;
  laterAfter: string | null;
  /** Filters that named nothing the database knows: the search shows nothing rather than everything. */
  unresolved: { ticket?: string; actor?: string };
  /** The ticket the search is about, when filtered by one. */
  ticket: { id: string; number: number; subject: string } | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function instant(value: string, end: boolean): Date {
  const at = new Date(`${value}Z`);
  // "to 10:05" means up to the end of that minute (or second), as a person reads it.
  if (end) at.setTime(at.getTime() + (value.length === 16 ? 60_000 : value.length === 19 ? 1000 : 1));
  return at;
}

async function actorWhere(client: Db, actor: string): Promise<Prisma.AuditEventWhereInput | null> {
  if ((ACTOR_TYPES as readonly string[]).includes(actor)) return { actorType: actor };
  if (actor.includes("@")) {
    const user = await client.user.findFirst({ where: { email: { equals: actor, mode: "insensitive" } }, select: { id: true } });
    return user ? { actorId: user.id } : null;
  }
  if (!UUID.test(actor)) {
    const users = await client.user.findMany({ where: { name: { equals: actor, mode: "insensitive" } }, select: { id: true } });
    if (users.length) return { actorId: { in: users.map((u) => u.id) } };
  }
  // Anything else is an actor id as recorded: a user id, a run id, "demo-seed", an API client.
  return { actorId: actor };
}

type TFilters = { where: Prisma.AuditEventWhereInput[]; ticket: TAuditResult["ticket"] };
type TEvent = Awaited<ReturnType<Db["auditEvent"]["findMany"]>>[number];

export async function searchAudit(input: { query?: TAuditQuery; pageSize?: number; client?: Db }): Promise<TAuditResult> {
  const client = input.client ?? defaultDb();
  const q = input.query ?? {};
  const filters = await resolveFilters(client, q);
  if ("unresolved" in filters) return { events: [], earlierBefore: null, laterAfter: null, ...filters };
  const page = await readPage(client, q, filters.where, input.pageSize ?? AUDIT_PAGE_SIZE);
  const { names, numbers } = await namesAndNumbers(client, page.events);
  return {
    events: page.events.map((e) => auditRow(e, names, numbers)),
    earlierBefore: page.earlierBefore,
    laterAfter: page.laterAfter,
    unresolved: {},
    ticket: filters.ticket,
  };
}

/**
 * The query's filters as conditions on AuditEvent; a ticket or an actor the database does not know
 * is returned as unresolved, so the search shows nothing rather than everything.
 */
async function resolveFilters(client: Db, q: TAuditQuery): Promise<TFilters | Pick<TAuditResult, "unresolved" | "ticket">> {
  const where: Prisma.AuditEventWhereInput[] = [];
  let ticket: TAuditResult["ticket"] = null;
  if (q.ticket) {
    // A ticket number past the column's range names no ticket (and must not reach the database as one).
    const tooLarge = /^#?\d{10,}$/.test(q.ticket) && Number(q.ticket.replace("#", "")) > 2_147_483_647;
    const found = tooLarge ? null : await findTicket(q.ticket, client);
    if (!found) return { ticket: null, unresolved: { ticket: q.ticket } };
    ticket = { id: found.id, number: found.number, subject: found.subject };
    where.push({ ticketId: found.id });
  }
  if (q.actor) {
    const byActor = await actorWhere(client, q.actor);
    if (!byActor) return { ticket, unresolved: { actor: q.actor } };
    where.push(byActor);
  }
  if (q.action) where.push({ action: { startsWith: q.action } });
  if (q.from || q.to)
    where.push({ at: { ...(q.from ? { gte: instant(q.from, false) } : {}), ...(q.to ? { lt: instant(q.to, true) } : {}) } });
  return { where, ticket };
}

/**
 * One keyset page, newest first: the first page holds the latest events; `before` pages towards older
 * ones, `after` back towards newer ones (read oldest first from the cursor, then turned around).
 */
async function readPage(client: Db, q: TAuditQuery, filters: Prisma.AuditEventWhereInput[], pageSize: number) {
  const forwards = q.after !== undefined && q.before === undefined;
  const where = [...filters];
  if (forwards) where.push({ seq: { gt: BigInt(q.after!) } });
  else if (q.before !== undefined) where.push({ seq: { lt: BigInt(q.before) } });

  const fetched = await client.auditEvent.findMany({
    where: { AND: where },
    orderBy: { seq: forwards ? "asc" : "desc" },
    take: pageSize + 1,
  });
  const more = fetched.length > pageSize;
  const events = forwards ? fetched.slice(0, pageSize).reverse() : fetched.slice(0, pageSize);
  const newest = events[0];
  const oldest = events.at(-1);
  const hasEarlier = forwards ? true : more;
  const hasLater = forwards ? more : q.before !== undefined;
  return {
    events,
    earlierBefore: hasEarlier && oldest ? oldest.seq.toString() : null,
    laterAfter: hasLater && newest ? newest.seq.toString() : null,
  };
}

/** The names of the people the page's events mention, and the numbers of their tickets: together. */
async function namesAndNumbers(client: Db, events: TEvent[]) {
  const ticketIds = [...new Set(events.map((e) => e.ticketId).filter((id): id is string => id !== null))];
  const [names, tickets] = await Promise.all([
    loadAuditNames({ events, client }),
    ticketIds.length ? client.ticket.findMany({ where: { id: { in: ticketIds } }, select: { id: true, number: true } }) : [],
  ]);
  return { names, numbers: new Map(tickets.map((t) => [t.id, t])) };
}

function auditRow(e: TEvent, names: Map<string, string>, numbers: Map<string, { id: string; number: number }>): TAuditRow {
  return {
    seq: e.seq,
    at: e.at,
    actorType: e.actorType,
    actorId: e.actorId,
    actorName: e.actorType === "user" && e.actorId ? (names.get(e.actorId) ?? null) : null,
    names: new Map(mentionedUserIds(e).flatMap((id) => (names.has(id) ? [[id, names.get(id)!] as const] : []))),
    action: e.action,
    subjectType: e.subjectType,
    subjectId: e.subjectId,
    ticket: e.ticketId ? (numbers.get(e.ticketId) ?? null) : null,
    inputs: e.inputs,
    policyDecision: e.policyDecision,
    idempotencyKey: e.idempotencyKey,
  };
}
