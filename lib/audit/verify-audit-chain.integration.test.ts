import { describe, expect, it } from "vitest";
import { asOwner, useTestDb } from "../../testing/db";
import { testAuditAction } from "../../testing/audit";
import { seedDemo } from "../../prisma/seed/demo";
import { auditVerifyReport } from "./audit-verify-report";
import { recordAuditEvent } from "./record-audit-event";

const testDb = useTestDb();

/** Changes a row behind the triggers' back, as only a database superuser could. */
async function tamper(sql: string) {
  await asOwner(testDb(), (client) =>
    client.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL session_replication_role = replica");
      await tx.$executeRawUnsafe(sql);
    }),
  );
}

async function report() {
  const lines: string[] = [];
  const code = await auditVerifyReport(testDb().client, (l) => lines.push(l), { file: "/nonexistent/checkpoints.jsonl" });
  return { code, text: lines.join("\n") };
}

describe("audit:verify without checkpoints", () => {
  it("passes on a fresh chain, and says that nothing is covered by a signature", async () => {
    await seedDemo(testDb().client);
    // Two more events on one stream, so the middle one has a successor.
    for (const n of [1, 2, 3])
      await testDb().client.$transaction((tx) =>
        recordAuditEvent(tx, { actorType: "system", action: testAuditAction(`step${n}`), subjectType: "test", subjectId: "one" }),
      );
    const { code, text } = await report();
    expect(code).toBe(0);
    expect(text).toContain("No signed checkpoint yet");
    expect(text).toContain("Unverified tail: 12 events after the latest checkpoint");
  });

  it("names the exact event whose contents were changed", async () => {
    const victim = await testDb().client.auditEvent.findFirstOrThrow({ where: { action: "ticket.created" }, orderBy: { seq: "asc" } });
    await tamper(`UPDATE "AuditEvent" SET inputs = '{"source":"forged"}' WHERE seq = ${victim.seq}`);
    const { code, text } = await report();
    expect(code).toBe(1);
    expect(text).toContain(
      `event #${victim.seq} (ticket.created, ${victim.at.toISOString()}) was altered: its contents no longer match its hash`,
    );
  });

  it("names a deleted event by the event that follows the gap in its stream", async () => {
    const { client } = testDb();
    const [, middle, last] = await client.auditEvent.findMany({ where: { stream: "test:one" }, orderBy: { streamSeq: "asc" } });
    await tamper(`DELETE FROM "AuditEvent" WHERE seq = ${middle!.seq}`);
    const { code, text } = await report();
    expect(code).toBe(1);
    expect(text).toContain(`event #${last!.seq} (test.step3) does not link to the event before it in test:one`);
  });
});
