// People's names for a list of audit events: one query however many events and people, and only
// ids that are people.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { loadAuditNames, type TNamedEvent } from "./audit-names";

const testDb = useTestDb();
const onDatabase = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";

const event = (over: Partial<TNamedEvent>): TNamedEvent => ({
  actorType: "system",
  actorId: null,
  subjectType: "ticket",
  subjectId: null,
  inputs: {},
  ...over,
});

describe(`loadAuditNames (${onDatabase})`, () => {
  it("names the actors, the people events are about and the assignees of a whole list in one query", async () => {
    const { client, roundTrips } = testDb();
    const person = (name: string, i: number) =>
      client.user.create({ data: { email: `names-${i}@example.com`, name, role: "REVIEWER", passwordHash: "x" } });
    const [ada, pat, sam, lee] = await Promise.all(["Ada Admin", "Pat Newcomer", "Sam Specialist", "Lee Lead"].map(person));
    const events = [
      event({ actorType: "user", actorId: ada!.id, subjectType: "user", subjectId: pat!.id, inputs: { ticketsUnassigned: 1 } }),
      event({ actorType: "user", actorId: ada!.id, inputs: { assigneeId: sam!.id } }),
      event({ actorType: "user", actorId: ada!.id, inputs: { previousAssigneeId: lee!.id, why: "user_deactivated" } }),
      // Not people: a run's id, a worker's name, a ticket as subject, a proposal's id.
      event({ actorType: "agent", actorId: "5b0c1d2e-3f4a-4b5c-8d6e-7f8091a2b3c4" }),
      event({ actorType: "system", actorId: "refund-worker", subjectType: "proposal", subjectId: "6c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5" }),
    ];
    const before = roundTrips.count;
    const names = await loadAuditNames({ events, client });
    expect(roundTrips.count - before).toBe(1);
    expect(Object.fromEntries(names)).toEqual({
      [ada!.id]: "Ada Admin",
      [pat!.id]: "Pat Newcomer",
      [sam!.id]: "Sam Specialist",
      [lee!.id]: "Lee Lead",
    });
  });

  it("asks nothing when no event names a person, and leaves out a person no longer there", async () => {
    const { client, roundTrips } = testDb();
    const before = roundTrips.count;
    expect((await loadAuditNames({ events: [event({ actorType: "agent", actorId: "run-1" })], client })).size).toBe(0);
    expect(roundTrips.count).toBe(before);
    const gone = "7d2e3f4a-5b6c-4d7e-8f80-91a2b3c4d5e6";
    expect((await loadAuditNames({ events: [event({ actorType: "user", actorId: gone })], client })).has(gone)).toBe(false);
  });
});
