// Prepared statements on PGlite (pglite-prepared.ts) answer as PGlite's own query() does – values
// serialized and parsed alike, errors alike – while each statement text is parsed once.
import type { PGlite } from "@electric-sql/pglite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migratedPglite } from "./migrated-template";
import { installPreparedStatements } from "./pglite-prepared";

let pglite: PGlite;
/** PGlite's own query(), beneath the prepared one. */
let plainQuery: PGlite["query"];

beforeEach(async () => {
  pglite = await migratedPglite();
  plainQuery = Object.getPrototypeOf(pglite).query.bind(pglite);
  await pglite.exec(
    `CREATE TABLE prepared_probe (id int PRIMARY KEY, doc jsonb, tags text[], at timestamptz, bytes bytea, flag boolean, note text)`,
  );
});
afterEach(() => pglite.close());

/** The prepared statements the session holds for this text. */
async function preparedCount(text: string): Promise<number> {
  const { rows } = await plainQuery<{ n: number }>(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1`, [text]);
  return rows[0]!.n;
}

describe("prepared statements on PGlite", () => {
  it("writes and reads every kind of value as PGlite's own query does", async () => {
    installPreparedStatements(pglite);
    const insert = `INSERT INTO prepared_probe VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`;
    const values = (id: number) => [
      id,
      { a: [1, "two"], b: null },
      ["x", "y,z", 'q"uote'],
      new Date("2026-01-02T03:04:05.678Z"),
      new Uint8Array([0, 1, 255]),
      true,
      null,
    ];
    const prepared = await pglite.query(insert, values(1));
    const plain = await plainQuery(insert, values(2));
    expect({ ...prepared, rows: prepared.rows.map((r) => ({ ...(r as object), id: 0 })) }).toEqual({
      ...plain,
      rows: plain.rows.map((r) => ({ ...(r as object), id: 0 })),
    });
    expect(prepared.rows[0]).toMatchObject({ doc: { a: [1, "two"], b: null }, tags: ["x", "y,z", 'q"uote'], flag: true, note: null });
    expect(prepared.affectedRows).toBe(1);
    // The caller's parsers and row mode are honoured.
    const probe = `SELECT id, flag FROM prepared_probe WHERE id = $1`;
    const mine = { 16: (text: string) => `bool:${text}` };
    const arrays = await pglite.query(probe, [1], { rowMode: "array", parsers: mine });
    expect(arrays.rows).toEqual([[1, "bool:t"]]);
    // Each caller's own parsers, however often one set is passed; none, the instance's.
    expect((await pglite.query(probe, [1], { rowMode: "array", parsers: { 16: (text: string) => `other:${text}` } })).rows).toEqual([
      [1, "other:t"],
    ]);
    expect((await pglite.query(probe, [1], { rowMode: "array", parsers: mine })).rows).toEqual([[1, "bool:t"]]);
    expect((await pglite.query(probe, [1], { rowMode: "array" })).rows).toEqual([[1, true]]);
  });

  it("parses a statement once however often it runs, inside transactions and out", async () => {
    installPreparedStatements(pglite);
    const text = `SELECT count(*)::int AS n FROM prepared_probe WHERE id > $1`;
    for (let i = 0; i < 3; i++) expect((await pglite.query<{ n: number }>(text, [0])).rows).toEqual([{ n: 0 }]);
    await pglite.transaction(async (tx) => {
      await tx.query(`INSERT INTO prepared_probe (id) VALUES ($1)`, [7]);
      expect((await tx.query<{ n: number }>(text, [0])).rows).toEqual([{ n: 1 }]);
    });
    expect(await preparedCount(text)).toBe(1);
    // Without it, PGlite prepares nothing.
    await plainQuery(`SELECT 1 AS one WHERE $1::int = 1`, [1]);
    expect(await preparedCount(`SELECT 1 AS one WHERE $1::int = 1`)).toBe(0);
  });

  it("throws the database's error with the statement and its parameters, and rolls a transaction back", async () => {
    installPreparedStatements(pglite);
    await pglite.query(`INSERT INTO prepared_probe (id) VALUES ($1)`, [1]);
    const duplicate = await pglite.query(`INSERT INTO prepared_probe (id) VALUES ($1)`, [1]).catch((error: unknown) => error);
    expect(duplicate).toMatchObject({ code: "23505", query: `INSERT INTO prepared_probe (id) VALUES ($1)`, params: [1] });
    const syntax = await pglite.query(`SELEC nothing`).catch((error: unknown) => error);
    expect(syntax).toMatchObject({ code: "42601" });
    await expect(
      pglite.transaction(async (tx) => {
        await tx.query(`INSERT INTO prepared_probe (id) VALUES ($1)`, [2]);
        await tx.query(`INSERT INTO prepared_probe (id) VALUES ($1)`, [1]);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect((await pglite.query(`SELECT id FROM prepared_probe ORDER BY id`)).rows).toEqual([{ id: 1 }]);
  });

  it("parses a statement again once the table beneath it has changed its columns", async () => {
    installPreparedStatements(pglite);
    const text = `SELECT * FROM prepared_probe WHERE id = $1`;
    await pglite.query(`INSERT INTO prepared_probe (id) VALUES ($1)`, [1]);
    await pglite.query(text, [1]);
    await pglite.exec(`ALTER TABLE prepared_probe ADD COLUMN added int DEFAULT 5`);
    // Postgres refuses the old plan once; the next run parses the statement anew.
    const first = await pglite.query(text, [1]).catch((error: unknown) => error);
    const again = first instanceof Error ? await pglite.query(text, [1]) : first;
    expect((again as { rows: unknown[] }).rows).toEqual([expect.objectContaining({ id: 1, added: 5 })]);
  });

  it("keeps at most the given number of statements, closing the least recently used", async () => {
    installPreparedStatements(pglite, { statements: 2 });
    const texts = [1, 2, 3, 4, 5].map((n) => `SELECT ${n} AS n WHERE $1::int = 1`);
    for (const text of texts) expect((await pglite.query(text, [1])).rows).toEqual([{ n: Number(texts.indexOf(text) + 1) }]);
    const { rows } = await plainQuery<{ n: number }>(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'cs_pglite_%'`);
    // The two kept, and the one pushed out by the last, closed with the next statement's parse.
    expect(rows[0]!.n).toBeLessThanOrEqual(3);
    expect((await pglite.query(texts[0]!, [1])).rows).toEqual([{ n: 1 }]);
    expect(await preparedCount(texts[1]!)).toBe(0);
  });
});
