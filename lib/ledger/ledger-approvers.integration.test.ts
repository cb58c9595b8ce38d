// The ledger names who approved each refund, not only who executed it: the refund worker writes every
// row, so without the approvals a person who approved a refund is nowhere on the ledger or its export.
// Real flows on the demo data: a one-person refund, a two-person refund and one auto-approved within
// the dial, each approved, queued and executed by the worker.
import { beforeAll, describe, expect, it } from "vitest";
import { csvRecords } from "../../testing/csv";
import { useTestDb } from "../../testing/db";
import { drainQueue } from "../../testing/queue";
import { freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { runAgent } from "../agent/run-agent";
import { decideApproval } from "../approvals/decide-approval";
import { REFUND_WORKER_ACTOR } from "../approvals/settle-refund";
import { updatePolicySettings } from "../policy/update-settings";
import { exportLedgerCsv } from "./export-ledger-csv";
import { listLedger, POLICY_APPROVER, type TLedgerFilters, type TLedgerRow } from "./list-ledger";

/** A page of the listing, counted at the driver: the entries, then one query per relation level (their
 * approvals, tickets and approving decisions), the names of actors and approvers together, the totals. */
const LISTING_ROUND_TRIPS = 6;

const testDb = useTestDb(seedDemo);
const onDatabase = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";

type TPerson = { id: string; name: string; role: "REVIEWER" | "SPECIALIST" | "ADMIN" };
let reviewer: TPerson;
let specialist: TPerson;
let admin: TPerson;
/** The approval request behind each kind of row. */
const requests = { onePerson: "", twoPerson: "", automatic: "" };

async function person(role: TPerson["role"]): Promise<TPerson> {
  const { id } = await user(testDb().client, role);
  const { name } = await testDb().client.user.findUniqueOrThrow({ where: { id } });
  return { id, name, role };
}

/** Runs the agent on a fresh order's ticket and returns the approval request it stopped with. */
async function requestFor(amountCents: number) {
  const { client } = testDb();
  const ticketId = await tabletTicket(client, await freshOrder(client, amountCents));
  await runAgent({ ticketId, client, startedBy: reviewer.id });
  return client.approvalRequest.findFirstOrThrow({ where: { ticketId } });
}

const approve = (request: { id: string; digest: string }, actor: TPerson) =>
  decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor });

beforeAll(async () => {
  [reviewer, specialist, admin] = [await person("REVIEWER"), await person("SPECIALIST"), await person("ADMIN")];
  const one = await requestFor(7_900);
  await approve(one, reviewer);
  // Seat 1 the specialist, seat 2 the admin: the names must come in seat order, not by name.
  const two = await requestFor(120_000);
  expect(two.approvalsRequired).toBe(2);
  await approve(two, specialist);
  await approve(two, admin);
  await updatePolicySettings({ changes: { "autonomy.autoApproveLimitCents": 10_000 }, actor: admin });
  const automatic = await requestFor(7_900);
  await updatePolicySettings({ changes: { "autonomy.autoApproveLimitCents": 0 }, actor: admin });
  expect(automatic.status).toBe("approved");
  await drainQueue(testDb());
  Object.assign(requests, { onePerson: one.id, twoPerson: two.id, automatic: automatic.id });
});

const rowOf = (rows: TLedgerRow[], approvalRequestId: string) => rows.find((r) => r.approvalRequestId === approvalRequestId);
const requestsListed = async (filters: TLedgerFilters) => (await listLedger({ filters })).rows.map((r) => r.approvalRequestId).sort();
const personApprover = (p: TPerson) => ({ kind: "person", userId: p.id, name: p.name });

async function csvText(filters: TLedgerFilters = {}): Promise<string> {
  let text = "";
  for await (const chunk of exportLedgerCsv({ filters })) text += chunk;
  return text;
}

describe(`the ledger's approvers (${onDatabase})`, () => {
  it("names the approvers beside the executing actor: one person, two in seat order, or the policy", async () => {
    const { rows } = await listLedger({});
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatchObject({ actorType: REFUND_WORKER_ACTOR.type, actorId: REFUND_WORKER_ACTOR.id });
    expect(rowOf(rows, requests.onePerson)?.approvers).toEqual([personApprover(reviewer)]);
    expect(rowOf(rows, requests.twoPerson)?.approvers).toEqual([personApprover(specialist), personApprover(admin)]);
    expect(rowOf(rows, requests.automatic)?.approvers).toEqual([{ kind: "policy" }]);
  });

  it("finds a row by any of its approvers, and still by its executor", async () => {
    expect(await requestsListed({ actor: reviewer.id })).toEqual([requests.onePerson]);
    expect(await requestsListed({ actor: specialist.id })).toEqual([requests.twoPerson]);
    expect(await requestsListed({ actor: admin.id })).toEqual([requests.twoPerson]);
    expect(await requestsListed({ actor: POLICY_APPROVER.filter })).toEqual([requests.automatic]);
    expect(await requestsListed({ actor: REFUND_WORKER_ACTOR.type })).toEqual(Object.values(requests).sort());
    const counted = await listLedger({ filters: { actor: admin.id } });
    expect(counted.totals.count).toBe(1);
    // Not a user id: matched against the executor only, and never sent to the uuid column of deciders.
    expect(await requestsListed({ actor: "someone" })).toEqual([]);
  });

  it("exports the approvers' names and ids beside the actor, and filters the export the same way", async () => {
    const records = csvRecords(await csvText());
    const line = (id: string) => records.find((r) => r.approval_request_id === id)!;
    expect(line(requests.onePerson)).toMatchObject({
      actor_type: REFUND_WORKER_ACTOR.type,
      actor_id: REFUND_WORKER_ACTOR.id,
      approved_by: reviewer.name,
      approver_ids: reviewer.id,
    });
    expect(line(requests.twoPerson)).toMatchObject({
      approved_by: `${specialist.name}; ${admin.name}`,
      approver_ids: `${specialist.id};${admin.id}`,
    });
    expect(line(requests.automatic)).toMatchObject({ approved_by: POLICY_APPROVER.words, approver_ids: POLICY_APPROVER.filter });

    const byReviewer = csvRecords(await csvText({ actor: reviewer.id }));
    expect(byReviewer.map((r) => r.approval_request_id)).toEqual([requests.onePerson]);
  });

  it("lists a page in the same number of round trips whatever its rows and approvers", async () => {
    const counter = testDb().roundTrips;
    const tripsOf = async (filters: TLedgerFilters) => {
      const before = counter.count;
      const { rows } = await listLedger({ filters });
      return { rows: rows.length, trips: counter.count - before };
    };
    const one = await tripsOf({ actor: reviewer.id });
    const all = await tripsOf({});
    expect([one.rows, all.rows]).toEqual([1, 3]);
    expect(all.trips).toBe(one.trips);
    expect(all.trips).toBeLessThanOrEqual(LISTING_ROUND_TRIPS);
  });
});
