// Audit search: events newest first (by seq), filtered by ticket, actor, action and time, one keyset
// page at a time. Each filter rides an index of AuditEvent: (ticketId, seq), (actorId, seq),
// (action, seq) and (at).
import { z } from "zod";
import type { Prisma } from "../../generated/prisma/client";
import { findTicket } from "../tickets/find-ticket";
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
    ticket: z.preprocess(blankAsUndefined, z.string().trim().min(1).max(200).optional()),
    /** An actor type (user, agent, system, api), a person's email or name, or an actor id. */
    actor: z.preprocess(blankAsUndefined, z.string().trim().min(1).max(200).optional()),
    /** An action or the start of one: "refund" finds refund.executed and refund.blocked_…. */
    action: z.preprocess(blankAsUndefined, z.string().trim().min(1).max(100).optional()),
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

export async function searchAudit(input: { query?: TAuditQuery; pageSize?: number; client?: Db }): Promise<TAuditResult> {
  const client = input.client ?? defaultDb();
  const q = input.query ?? {};
  const pageSize = input.pageSize ?? AUDIT_PAGE_SIZE;
  const empty: TAuditResult = { events: [], earlierBefore: null, laterAfter: null, unresolved: {}, ticket: null };

  const where: Prisma.AuditEventWhereInput[] = [];
  let ticket: TAuditResult["ticket"] = null;
  if (q.ticket) {
    // A ticket number past the column's range names no ticket (and must not reach the database as one).
    const tooLarge = /^#?\d{10,}$/.test(q.ticket) && Number(q.ticket.replace("#", "")) > 2_147_483_647;
    const found = tooLarge ? null : await findTicket(q.ticket, client);
    if (!found) return { ...empty, unresolved: { ticket: q.ticket } };
    ticket = { id: found.id, number: found.number, subject: found.subject };
    where.push({ ticketId: found.id });
  }
  if (q.actor) {
    const byActor = await actorWhere(client, q.actor);
    if (!byActor) return { ...empty, ticket, unresolved: { actor: q.actor } };
    where.push(byActor);
  }
  if (q.action) where.push({ action: { startsWith: q.action } });
  if (q.from || q.to)
    where.push({ at: { ...(q.from ? { gte: instant(q.from, false) } : {}), ...(q.to ? { lt: instant(q.to, true) } : {}) } });

  // Newest first: the first page holds the latest events; `before` pages towards older ones, `after`
  // back towards newer ones (read oldest first from the cursor, then turned around).
  const forwards = q.after !== undefined && q.before === undefined;
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

  // People by name: the actors, and the people an event's inputs name (an assignee, a person changed).
  const named = (e: (typeof events)[number]) => {
    const inputs = (e.inputs && typeof e.inputs === "object" ? e.inputs : {}) as Record<string, unknown>;
    return [
      e.actorType === "user" ? e.actorId : null,
      inputs.assigneeId,
      inputs.previousAssigneeId,
      e.subjectType === "user" ? e.subjectId : null,
    ];
  };
  const userIds = [...new Set(events.flatMap(named).filter((id): id is string => typeof id === "string" && UUID.test(id)))];
  const ticketIds = [...new Set(events.map((e) => e.ticketId).filter((id): id is string => id !== null))];
  const [users, tickets] = await Promise.all([
    userIds.length ? client.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } }) : [],
    ticketIds.length ? client.ticket.findMany({ where: { id: { in: ticketIds } }, select: { id: true, number: true } }) : [],
  ]);
  const names = new Map(users.map((u) => [u.id, u.name]));
  const numbers = new Map(tickets.map((t) => [t.id, t]));

  return {
    events: events.map((e) => ({
      seq: e.seq,
      at: e.at,
      actorType: e.actorType,
      actorId: e.actorId,
      actorName: e.actorType === "user" && e.actorId ? (names.get(e.actorId) ?? null) : null,
      names: new Map(named(e).flatMap((id) => (typeof id === "string" && names.has(id) ? [[id, names.get(id)!] as const] : []))),
      action: e.action,
      subjectType: e.subjectType,
      subjectId: e.subjectId,
      ticket: e.ticketId ? (numbers.get(e.ticketId) ?? null) : null,
      inputs: e.inputs,
      policyDecision: e.policyDecision,
      idempotencyKey: e.idempotencyKey,
    })),
    earlierBefore: hasEarlier && oldest ? oldest.seq.toString() : null,
    laterAfter: hasLater && newest ? newest.seq.toString() : null,
    unresolved: {},
    ticket,
  };
}
