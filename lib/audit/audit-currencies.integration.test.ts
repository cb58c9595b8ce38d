// A ticket's audit events in words through the real loop, the real decision and the real executor:
// the refund executed and the auto-approval record their amounts without a currency, and the
// sentences still carry the order's.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { drainQueue } from "../../testing/queue";
import { freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { runAgent } from "../agent/run-agent";
import { decideApproval } from "../approvals/decide-approval";
import { loadAuditCurrencies } from "./audit-currencies";
import { loadAuditNames } from "./audit-names";
import { describeAuditEvent } from "./describe-event";

const testDb = useTestDb(seedDemo);
const onDatabase = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";

/** A fresh order in euros, its ticket run by the rule planner. */
async function euroTicket(startedBy: string) {
  const { client } = testDb();
  const world = await freshOrder(client);
  await client.order.update({ where: { id: world.orderId }, data: { currency: "EUR" } });
  const ticketId = await tabletTicket(client, world);
  await runAgent({ ticketId, client, startedBy });
  return { ticketId, orderId: world.orderId };
}

async function sentencesOf(ticketId: string): Promise<Record<string, string>> {
  const { client } = testDb();
  const events = await client.auditEvent.findMany({ where: { ticketId }, orderBy: { seq: "asc" } });
  const ticket = await client.ticket.findUniqueOrThrow({ where: { id: ticketId }, select: { number: true } });
  const [names, currencies] = await Promise.all([loadAuditNames({ events, client }), loadAuditCurrencies({ events, client })]);
  return Object.fromEntries(events.map((e) => [e.action, describeAuditEvent({ ...e, ticket, actorName: null, names, currencies })]));
}

let decided = { ticketId: "", orderId: "" };
let automatic = { ticketId: "", orderId: "" };

beforeAll(async () => {
  const { client } = testDb();
  const reviewer = await user(client, "REVIEWER");
  decided = await euroTicket(reviewer.id);
  const request = await client.approvalRequest.findFirstOrThrow({ where: { ticketId: decided.ticketId } });
  await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer });
  // The dial raised behind the settings' back: this test is about the words, not the evidence rule.
  await client.setting.update({ where: { key: "autonomy.autoApproveLimitCents" }, data: { value: 10_000 } });
  automatic = await euroTicket(reviewer.id);
  await client.setting.update({ where: { key: "autonomy.autoApproveLimitCents" }, data: { value: 0 } });
  await drainQueue(testDb());
});

describe(`a ticket's audit events in words (${onDatabase})`, () => {
  it("names the reviewer, and writes the proposal and the executed refund in the order's currency", async () => {
    const said = await sentencesOf(decided.ticketId);
    expect(said["approval.approved"]).toMatch(/^Riley Reviewer approved the refund on ticket #\d+/);
    expect(said["proposal.recorded"]).toContain("of 79.00 EUR");
    expect(said["refund.executed"]).toMatch(
      new RegExp(`^The refund worker refunded 79\\.00 EUR on order ${decided.orderId} \\(ticket #\\d+\\)\\.$`),
    );
  });

  it("writes an auto-approval in its proposal's currency, decided by the policy", async () => {
    const said = await sentencesOf(automatic.ticketId);
    expect(said["approval.auto_approved"]).toMatch(
      /^The policy auto-approved a refund of 79\.00 EUR on ticket #\d+, within the autonomy dial\.$/,
    );
    expect(said["refund.executed"]).toContain("79.00 EUR");
  });

  it("asks one query for a whole list's currencies, and none when every amount carries its own", async () => {
    const { client, roundTrips } = testDb();
    const events = await client.auditEvent.findMany({ where: { ticketId: { in: [decided.ticketId, automatic.ticketId] } } });
    let before = roundTrips.count;
    const currencies = await loadAuditCurrencies({ events, client });
    expect(roundTrips.count - before).toBe(1);
    expect(currencies.get(decided.orderId)).toBe("EUR");
    before = roundTrips.count;
    expect((await loadAuditCurrencies({ events: events.filter((e) => e.action === "proposal.recorded"), client })).size).toBe(0);
    expect(roundTrips.count).toBe(before);
  });
});
