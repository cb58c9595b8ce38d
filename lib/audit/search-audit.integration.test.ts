import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestDb } from "../../testing/db";
import { createTicket } from "../intake/create-ticket";
import { recordAuditEvent, type TAuditInput } from "./record-audit-event";
import { searchAudit, ZAuditQuery, type TAuditQuery } from "./search-audit";

const testDb = useTestDb();
const onDatabase = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";

const T0 = Date.parse("2026-11-20T10:00:00.000Z");
let ticketA = { id: "", number: 0 };
let ticketB = { id: "", number: 0 };
let userId = "";

async function record(minute: number, event: TAuditInput) {
  vi.setSystemTime(T0 + minute * 60_000);
  await testDb().client.$transaction((tx) => recordAuditEvent(tx, event));
}

const search = (query: TAuditQuery, pageSize?: number) => searchAudit({ query: ZAuditQuery.parse(query), pageSize });

beforeAll(async () => {
  // Only Date is faked: the chain's timestamps are what the time filter reads.
  vi.useFakeTimers({ toFake: ["Date"] });
  const { client } = testDb();
  const user = await client.user.create({ data: { email: "Lee.Lead@example.com", name: "Lee Lead", role: "LEAD", passwordHash: "x" } });
  userId = user.id;
  vi.setSystemTime(T0);
  const a = await createTicket(
    { subject: "Cracked tablet", body: "My tablet is cracked.", customerEmail: "a@example.net", source: "form", externalId: "ext-a" },
    { type: "user", id: userId },
  );
  vi.setSystemTime(T0 + 60_000);
  const b = await createTicket(
    { subject: "Late parcel", body: "Where is it?", customerEmail: "b@example.net", source: "api" },
    { type: "api", id: "helpdesk" },
  );
  ticketA = { id: a.id, number: a.number };
  ticketB = { id: b.id, number: b.number };
  await record(2, {
    actorType: "agent",
    actorId: "run-1",
    action: "run.started",
    subjectType: "ticket",
    subjectId: a.id,
    ticketId: a.id,
    inputs: { mode: "live" },
  });
  await record(3, {
    actorType: "agent",
    actorId: "run-1",
    action: "tool.called",
    subjectType: "run",
    subjectId: "run-1",
    ticketId: a.id,
    inputs: { step: 1 },
    policyDecision: { decision: "allow" },
  });
  await record(4, {
    actorType: "user",
    actorId: userId,
    action: "refund.executed",
    subjectType: "approval",
    subjectId: "ap-1",
    ticketId: a.id,
    idempotencyKey: "refund:abc",
  });
  await record(5, {
    actorType: "system",
    actorId: "autonomy-dial",
    action: "refund.blocked_not_approved",
    subjectType: "approval",
    subjectId: "ap-2",
    ticketId: b.id,
  });
  await record(6, { actorType: "user", actorId: userId, action: "settings.changed", subjectType: "setting", subjectId: "autonomy" });
});

afterAll(() => {
  vi.useRealTimers();
});

describe(`searchAudit (${onDatabase})`, () => {
  it("lists every event newest first, with names and ticket numbers", async () => {
    const { events, laterAfter, earlierBefore } = await search({});
    expect(events.map((e) => e.action)).toEqual([
      "settings.changed",
      "refund.blocked_not_approved",
      "refund.executed",
      "tool.called",
      "run.started",
      "ticket.created",
      "ticket.created",
    ]);
    expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((x, y) => (x > y ? -1 : 1)));
    expect(events[6]).toMatchObject({ actorName: "Lee Lead", ticket: { id: ticketA.id, number: ticketA.number } });
    expect(events[0]).toMatchObject({ ticket: null, subjectType: "setting" });
    expect(laterAfter).toBeNull();
    expect(earlierBefore).toBeNull();
  });

  it("finds a ticket's events by number, #number, id or external id", async () => {
    for (const ref of [String(ticketA.number), `#${ticketA.number}`, ticketA.id, "ext-a"]) {
      const result = await search({ ticket: ref });
      expect(result.ticket).toMatchObject({ id: ticketA.id, subject: "Cracked tablet" });
      expect(result.events.map((e) => e.action)).toEqual(["refund.executed", "tool.called", "run.started", "ticket.created"]);
    }
    for (const ref of ["99999", "#99999999999", "no-such-ticket"]) {
      expect(await search({ ticket: ref })).toMatchObject({ events: [], unresolved: { ticket: ref } });
    }
  });

  it("finds an actor by email (any case), name, type or recorded id", async () => {
    expect((await search({ actor: "lee.lead@EXAMPLE.com" })).events.map((e) => e.action)).toEqual([
      "settings.changed",
      "refund.executed",
      "ticket.created",
    ]);
    expect((await search({ actor: "lee lead" })).events).toHaveLength(3);
    expect((await search({ actor: "agent" })).events.map((e) => e.action)).toEqual(["tool.called", "run.started"]);
    expect((await search({ actor: "helpdesk" })).events.map((e) => e.subjectId)).toEqual([ticketB.id]);
    expect(await search({ actor: "nobody@example.com" })).toMatchObject({ events: [], unresolved: { actor: "nobody@example.com" } });
  });

  it("finds actions by name or prefix, and combines filters", async () => {
    expect((await search({ action: "refund" })).events.map((e) => e.action)).toEqual(["refund.blocked_not_approved", "refund.executed"]);
    expect((await search({ action: "refund.executed" })).events[0]).toMatchObject({ idempotencyKey: "refund:abc", subjectId: "ap-1" });
    expect((await search({ action: "refund", ticket: String(ticketB.number) })).events.map((e) => e.action)).toEqual([
      "refund.blocked_not_approved",
    ]);
  });

  it("filters by time, reading the inputs as UTC and `to` as the end of its minute", async () => {
    const inRange = await search({ from: "2026-11-20T10:02", to: "2026-11-20T10:04" });
    expect(inRange.events.map((e) => e.action)).toEqual(["refund.executed", "tool.called", "run.started"]);
    expect((await search({ from: "2026-11-20T10:05:30" })).events.map((e) => e.action)).toEqual(["settings.changed"]);
    expect(ZAuditQuery.safeParse({ from: "2026-11-20T10:05", to: "2026-11-20T10:00" }).success).toBe(false);
    expect(ZAuditQuery.safeParse({ from: "last tuesday" }).success).toBe(false);
  });

  it("pages to earlier events and back to later ones by seq without repeating an event", async () => {
    const all = (await search({})).events.map((e) => e.seq);
    const earlier: bigint[] = [];
    let page = await search({}, 3);
    expect(page.laterAfter).toBeNull();
    earlier.push(...page.events.map((e) => e.seq));
    while (page.earlierBefore) {
      page = await search({ before: page.earlierBefore }, 3);
      earlier.push(...page.events.map((e) => e.seq));
    }
    expect(earlier).toEqual(all);
    const later: bigint[] = [...page.events.map((e) => e.seq)];
    while (page.laterAfter) {
      page = await search({ after: page.laterAfter }, 3);
      later.unshift(...page.events.map((e) => e.seq));
    }
    expect(later).toEqual(all);
  });
});
