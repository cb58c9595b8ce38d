import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { seedDemo } from "../../prisma/seed/demo";
import { auditVerifyReport } from "./audit-verify-report";

const testDb = useTestDb();

/** Changes a row behind the triggers' back, as only a database superuser could. */
async function tamper(sql: string) {
  await testDb().client.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL session_replication_role = replica");
    await tx.$executeRawUnsafe(sql);
  });
}

async function report() {
  const lines: string[] = [];
  const code = await auditVerifyReport(testDb().client, (l) => lines.push(l));
  return { code, text: lines.join("\n") };
}

describe("audit:verify", () => {
  it("passes on a fresh chain", async () => {
    await seedDemo(testDb().client);
    const { code, text } = await report();
    expect(code).toBe(0);
    expect(text).toMatch(/^Audit chain verifies: 8 events/);
  });

  it("names the exact event whose contents were changed", async () => {
    const events = await testDb().client.auditEvent.findMany({ orderBy: { seq: "asc" } });
    const victim = events[4]!;
    await tamper(`UPDATE "AuditEvent" SET inputs = '{"source":"forged"}' WHERE seq = ${victim.seq}`);
    const { code, text } = await report();
    expect(code).toBe(1);
    expect(text).toContain(`BROKEN at event #${victim.seq} (ticket.created`);
    expect(text).toContain("its contents no longer match its hash");
    expect(text).toContain("4 events before it verify");
  });

  it("names a deleted link by the event that follows the gap", async () => {
    const { client } = testDb();
    const events = await client.auditEvent.findMany({ orderBy: { seq: "asc" } });
    await tamper(`DELETE FROM "AuditEvent" WHERE seq = ${events[1]!.seq}`);
    const { code, text } = await report();
    expect(code).toBe(1);
    expect(text).toContain(`BROKEN at event #${events[2]!.seq}`);
    expect(text).toContain("does not link to the event before it");
  });
});
