// A child process for the backup tests: opens an embedded database that exists already, says
// "holding", and keeps appending audit events (two per transaction) until killed – the running
// server, as far as the data directory is concerned. Usage: tsx testing/hold-and-write.ts DIR
import { openDb } from "../lib/db";
import { recordAuditEvents } from "../lib/audit/record-audit-event";
import { testAuditAction } from "./audit";

const handle = openDb({ kind: "pglite", dir: process.argv[2]! });
await handle.client.$queryRaw`SELECT 1`;
console.log("holding");
for (let i = 0; ; i++) {
  await handle.client.$transaction((tx) =>
    recordAuditEvents(tx, [
      { actorType: "system", actorId: "hold-and-write", action: testAuditAction("written"), subjectType: "test", subjectId: `w${i % 3}` },
      {
        actorType: "system",
        actorId: "hold-and-write",
        action: testAuditAction("written"),
        subjectType: "test",
        subjectId: `w${(i + 1) % 3}`,
      },
    ]),
  );
  await new Promise((r) => setTimeout(r, 20));
}
