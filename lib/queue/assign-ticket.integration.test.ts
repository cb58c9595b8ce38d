import { beforeEach, describe, expect, it } from "vitest";
import type { Role } from "../../generated/prisma/enums";
import { useTestDb } from "../../testing/db";
import { refusalCode } from "../../testing/refusals";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { setUserActive } from "../auth/set-user-active";
import { assignTicket } from "./assign-ticket";

const testDb = useTestDb();

type TPerson = { id: string; role: Role };
let people: Record<"ana" | "bo" | "spec" | "lead" | "admin" | "gone", TPerson>;
let ticketId: string;

async function person(email: string, role: Role, active = true): Promise<TPerson> {
  const u = await testDb().client.user.create({
    data: { email, name: email.split("@")[0]!, role, passwordHash: "x", active },
    select: { id: true, role: true },
  });
  return u;
}

async function newTicket(status: "needs_human" | "resolved" = "needs_human") {
  const t = await testDb().client.ticket.create({
    data: {
      source: "seed",
      subject: "Help",
      body: "Please help.",
      customerEmail: "c@example.net",
      route: "guarded_agent",
      bundleVersion: "intake-rules-2026.11",
      admission: "admitted",
      status,
    },
    select: { id: true },
  });
  return t.id;
}

const assigneeOf = async (id: string) =>
  (await testDb().client.ticket.findUniqueOrThrow({ where: { id }, select: { assigneeId: true } })).assigneeId;
const events = (id: string) =>
  testDb().client.auditEvent.findMany({
    where: { ticketId: id },
    orderBy: { seq: "asc" },
    select: { action: true, actorId: true, inputs: true },
  });

beforeEach(async () => {
  const n = Math.random().toString(36).slice(2, 8);
  people = {
    ana: await person(`ana-${n}@example.com`, "REVIEWER"),
    bo: await person(`bo-${n}@example.com`, "REVIEWER"),
    spec: await person(`spec-${n}@example.com`, "SPECIALIST"),
    lead: await person(`lead-${n}@example.com`, "LEAD"),
    admin: await person(`admin-${n}@example.com`, "ADMIN"),
    gone: await person(`gone-${n}@example.com`, "REVIEWER", false),
  };
  ticketId = await newTicket();
});

describe("assignTicket", () => {
  it("lets a reviewer claim an unassigned ticket, audited with who and how", async () => {
    expect(await assignTicket({ ticketId, change: { kind: "claim" }, actor: people.ana })).toEqual({
      assigneeId: people.ana.id,
      changed: true,
    });
    expect(await assigneeOf(ticketId)).toBe(people.ana.id);
    expect(await events(ticketId)).toEqual([
      { action: "ticket.assigned", actorId: people.ana.id, inputs: { assigneeId: people.ana.id, previousAssigneeId: null, how: "claim" } },
    ]);
  });

  it("refuses a claim on a ticket someone else holds, and writes nothing; claiming one's own is a no-op", async () => {
    await assignTicket({ ticketId, change: { kind: "claim" }, actor: people.ana });
    expect(await refusalCode(assignTicket({ ticketId, change: { kind: "claim" }, actor: people.bo }))).toBe("ticket_claimed");
    expect(await assignTicket({ ticketId, change: { kind: "claim" }, actor: people.ana })).toEqual({
      assigneeId: people.ana.id,
      changed: false,
    });
    expect(await assigneeOf(ticketId)).toBe(people.ana.id);
    expect(await events(ticketId)).toHaveLength(1);
  });

  it("refuses a claim on a held ticket to every role that claims, admin included; each may still take it over by assigning", async () => {
    await assignTicket({ ticketId, change: { kind: "claim" }, actor: people.spec });
    for (const who of [people.ana, people.admin]) {
      expect(await refusalCode(assignTicket({ ticketId, change: { kind: "claim" }, actor: who }))).toBe("ticket_claimed");
      expect(await assigneeOf(ticketId)).toBe(people.spec.id);
    }
    expect(await assignTicket({ ticketId, change: { kind: "assign", assigneeId: people.ana.id }, actor: people.ana })).toEqual({
      assigneeId: people.ana.id,
      changed: true,
    });
    expect(await assignTicket({ ticketId, change: { kind: "assign", assigneeId: people.admin.id }, actor: people.admin })).toEqual({
      assigneeId: people.admin.id,
      changed: true,
    });
    expect((await events(ticketId)).map((e) => (e.inputs as { how: string }).how)).toEqual(["claim", "assign", "assign"]);
  });

  it("assigns to an active person who works tickets, over whoever held it; a lead may hand out but not claim", async () => {
    await assignTicket({ ticketId, change: { kind: "claim" }, actor: people.ana });
    expect(await refusalCode(assignTicket({ ticketId, change: { kind: "claim" }, actor: people.lead }))).toBe("forbidden");
    await assignTicket({ ticketId, change: { kind: "assign", assigneeId: people.spec.id }, actor: people.lead });
    expect(await assigneeOf(ticketId)).toBe(people.spec.id);
    for (const to of [people.lead.id, people.gone.id, "00000000-0000-4000-8000-000000000000"]) {
      expect(await refusalCode(assignTicket({ ticketId, change: { kind: "assign", assigneeId: to }, actor: people.admin }))).toBe(
        "invalid",
      );
    }
    expect(await assigneeOf(ticketId)).toBe(people.spec.id);
    expect((await events(ticketId)).map((e) => [e.action, (e.inputs as { how: string }).how])).toEqual([
      ["ticket.assigned", "claim"],
      ["ticket.assigned", "assign"],
    ]);
  });

  it("unassigns, audited; a resolved ticket may be unassigned but not claimed; an unknown one is not_found", async () => {
    await assignTicket({ ticketId, change: { kind: "claim" }, actor: people.ana });
    expect(await assignTicket({ ticketId, change: { kind: "unassign" }, actor: people.bo })).toEqual({ assigneeId: null, changed: true });
    expect((await events(ticketId)).at(-1)).toEqual({
      action: "ticket.unassigned",
      actorId: people.bo.id,
      inputs: { previousAssigneeId: people.ana.id, why: "by_hand" },
    });
    const resolved = await newTicket("resolved");
    expect(await refusalCode(assignTicket({ ticketId: resolved, change: { kind: "claim" }, actor: people.ana }))).toBe("ticket_resolved");
    expect(
      await refusalCode(assignTicket({ ticketId: "00000000-0000-4000-8000-000000000000", change: { kind: "claim" }, actor: people.ana })),
    ).toBe("not_found");
  });
});

describe("deactivating the assignee (setUserActive)", () => {
  it("unassigns every ticket the person held, one event per ticket, ends their sessions, and keeps the chain", async () => {
    const { client } = testDb();
    const second = await newTicket();
    await assignTicket({ ticketId, change: { kind: "claim" }, actor: people.ana });
    await assignTicket({ ticketId: second, change: { kind: "claim" }, actor: people.ana });
    const other = await newTicket();
    await assignTicket({ ticketId: other, change: { kind: "claim" }, actor: people.bo });
    await client.userSession.create({ data: { userId: people.ana.id } });

    expect(await refusalCode(setUserActive({ userId: people.ana.id, active: false, actor: people.lead, now: new Date() }))).toBe(
      "forbidden",
    );
    expect(await setUserActive({ userId: people.ana.id, active: false, actor: people.admin, now: new Date() })).toMatchObject({
      ticketsUnassigned: 2,
      changed: true,
    });
    expect([await assigneeOf(ticketId), await assigneeOf(second), await assigneeOf(other)]).toEqual([null, null, people.bo.id]);
    expect((await events(second)).at(-1)).toEqual({
      action: "ticket.unassigned",
      actorId: people.admin.id,
      inputs: { previousAssigneeId: people.ana.id, why: "user_deactivated" },
    });
    expect(await client.userSession.count({ where: { userId: people.ana.id, revokedAt: null } })).toBe(0);
    expect(await refusalCode(assignTicket({ ticketId, change: { kind: "assign", assigneeId: people.ana.id }, actor: people.admin }))).toBe(
      "invalid",
    );
    expect(await setUserActive({ userId: people.ana.id, active: false, actor: people.admin, now: new Date() })).toEqual({ changed: false });
    expect((await verifyAuditChain(client, { publicKey: null })).ok).toBe(true);
  });
});

describe.runIf(!!process.env.DATABASE_URL)("on PostgreSQL, under concurrency", () => {
  it("gives a ticket claimed by eight reviewers at once to exactly one of them", async () => {
    const reviewers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => person(`racer-${i}-${Math.random().toString(36).slice(2, 8)}@example.com`, "REVIEWER")),
    );
    const answers = await Promise.all(reviewers.map((r) => refusalCode(assignTicket({ ticketId, change: { kind: "claim" }, actor: r }))));
    expect(answers.filter((a) => a === "accepted")).toHaveLength(1);
    expect(answers.filter((a) => a === "ticket_claimed")).toHaveLength(7);
    const winner = reviewers[answers.indexOf("accepted")]!;
    expect(await assigneeOf(ticketId)).toBe(winner.id);
    expect(await events(ticketId)).toHaveLength(1);
  });

  it("leaves no ticket with a deactivated assignee when an assignment races the deactivation", async () => {
    const tickets = await Promise.all(Array.from({ length: 6 }, () => newTicket()));
    await Promise.all([
      ...tickets.map((id) =>
        refusalCode(assignTicket({ ticketId: id, change: { kind: "assign", assigneeId: people.bo.id }, actor: people.admin })),
      ),
      setUserActive({ userId: people.bo.id, active: false, actor: people.admin, now: new Date() }),
    ]);
    expect(await testDb().client.ticket.count({ where: { id: { in: tickets }, assigneeId: people.bo.id } })).toBe(0);
  });
});
