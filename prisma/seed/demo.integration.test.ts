import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { DEMO_PASSWORD, DEMO_USERS, seedDemo } from "./demo";
import { verifyPassword } from "../../lib/auth/password";

const testDb = useTestDb();

async function snapshot() {
  const { client } = testDb();
  return {
    users: await client.user.findMany({ orderBy: { email: "asc" } }),
    orders: await client.order.findMany({ orderBy: { id: "asc" } }),
    documents: await client.policyDocument.findMany({ orderBy: [{ docKey: "asc" }, { version: "asc" }] }),
    chunks: await client.policyChunk.count(),
    tickets: await client.ticket.findMany({ orderBy: { number: "asc" } }),
    settings: await client.setting.findMany({ orderBy: { key: "asc" } }),
    audit: await client.auditEvent.count(),
  };
}

describe("demo seed", () => {
  it("tells the product's story: one user per role, a ticket per situation", async () => {
    const { client } = testDb();
    await seedDemo(client);
    const s = await snapshot();
    expect(s.users.map((u) => u.role).sort()).toEqual(["ADMIN", "LEAD", "REVIEWER", "SPECIALIST"]);
    expect(await verifyPassword(DEMO_PASSWORD, s.users[0]!.passwordHash)).toBe(true);
    expect(s.orders.map((o) => [o.item, o.amountCents])).toContainEqual(["Aurora 10-inch tablet", 7900]);
    expect(s.documents.map((d) => `${d.docKey}@${d.version}:${d.status}`)).toEqual([
      "return-policy-us@1:retired",
      "return-policy-us@2:published",
      "seller-private-note-44@1:draft",
      "support-sla@1:published",
    ]);
    const byExternal = Object.fromEntries(s.tickets.map((t) => [t.externalId, t]));
    expect(byExternal["demo-cracked-tablet"]).toMatchObject({ admission: "admitted", status: "open" });
    expect(byExternal["demo-chargeback-threat"]).toMatchObject({
      route: "human_review_now",
      admission: "bypassed",
      reason: "classifier_human_review",
    });
    expect(byExternal["demo-stale-bundle"]).toMatchObject({ admission: "bypassed", reason: "stale_intake_bundle" });
    expect(byExternal["demo-missing-order"]).toMatchObject({ orderRef: "ORD-9999", admission: "admitted" });
    // Every ticket's creation is on the audit chain.
    expect(s.audit).toBe(s.tickets.length);
  });

  it("changes nothing when run again", async () => {
    const { client } = testDb();
    const before = await snapshot();
    expect(await seedDemo(client)).toBe("0 users, 0 customers, 0 orders, 0 documents, 0 tickets, 0 settings");
    expect(await snapshot()).toEqual(before);
  });

  it("leaves rows people changed as they are", async () => {
    const { client } = testDb();
    await client.user.update({ where: { email: DEMO_USERS[0]!.email }, data: { name: "Renamed" } });
    await client.setting.update({ where: { key: "policy.dailyCapCents" }, data: { value: 1234 } });
    await seedDemo(client);
    expect((await client.user.findUniqueOrThrow({ where: { email: DEMO_USERS[0]!.email } })).name).toBe("Renamed");
    expect((await client.setting.findUniqueOrThrow({ where: { key: "policy.dailyCapCents" } })).value).toBe(1234);
  });
});
