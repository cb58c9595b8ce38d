// Each table written only in its store (table-writers.ts): the scan finds every style of write the
// codebase has used, and the tree has none outside its table's store.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { storeOf, STORES, writesIn, writesOutsideStores } from "./table-writers";

const root = fileURLToPath(new URL("../..", import.meta.url));

// One sample of each way code has written a table, each naming a different table.
const STYLES = {
  "a Prisma model call": ["await tx.ticket.update({ where: { id }, data: { assigneeId } });", "Ticket"],
  "a Prisma call split over lines": ["await tx\n  .approvalRequest\n  .updateMany({ where: {} });", "ApprovalRequest"],
  "an INSERT in a template": ['await tx.$executeRaw`INSERT INTO "LedgerEntry" ("id") VALUES (${id})`;', "LedgerEntry"],
  "an UPDATE in a CTE fragment": ['Prisma.sql`decided AS (\n  UPDATE "ApprovalDecision" SET "note" = ${note}\n)`', "ApprovalDecision"],
  "a DELETE in a string": ['const SQL = preparedSql(`DELETE FROM "UserSession" WHERE "id" = $1`);', "UserSession"],
  "a line break inside the statement": ['`INSERT INTO\n    "TraceEvent" ("id")`', "TraceEvent"],
  "the chain's SQL function": ["WITH a AS (SELECT countersign_append_audit ($1::jsonb))", "countersign_append_audit"],
  "the ledger's SQL function": ["FROM countersign_write_refund($1::text)", "countersign_write_refund"],
  "pg-boss's own table": ["INSERT INTO pgboss.job (id) VALUES ($1)", "pgboss"],
} as const;

describe("each table written only in its store", () => {
  it.each(Object.entries(STYLES))("finds %s", (_style, [text, table]) => {
    expect(writesIn(`const x = 1;\n${text}\n`).map((w) => w.table)).toEqual([table]);
  });

  it("does not take reads, or a table whose name starts like another's, for writes", () => {
    const reads = [
      'SELECT * FROM "Ticket" WHERE "id" = $1 FOR UPDATE',
      "await tx.ticket.findMany({}); await client.approvalRequest.count();",
      'UPDATE "TicketSearchKeyArchive" SET x = 1',
      "GRANT EXECUTE ON FUNCTION pgboss.create_queue(text, json) TO app",
    ];
    expect(reads.flatMap((text) => writesIn(text))).toEqual([]);
  });

  it("names the line a write starts on", () => {
    expect(writesIn('a\nb\nawait sql`\n  UPDATE "Order" SET x = 1`')).toEqual([{ table: "Order", line: 4, text: 'UPDATE "Order"' }]);
  });

  it("gives every table one store, and no table two", () => {
    const tables = Object.values(STORES).flatMap((s) => [...s.tables]);
    expect(new Set(tables).size).toBe(tables.length);
    expect(storeOf("ApprovalRequest")).toEqual(["lib/approvals/store/"]);
  });

  it("places every table of the schema in a group", () => {
    const models = [...readFileSync(`${root}/prisma/schema.prisma`, "utf8").matchAll(/^model (\w+) \{/gm)].map((m) => m[1]!);
    const grouped = Object.values(STORES).flatMap((s) => [...s.tables] as string[]);
    expect(models.length).toBeGreaterThan(20);
    expect(models.filter((m) => !grouped.includes(m))).toEqual([]);
  });

  it("finds no write outside its table's store in the tree", () => {
    expect(writesOutsideStores(root)).toEqual([]);
  });
});
