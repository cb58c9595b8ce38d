// A test file that opens a database says so in its name (`*.integration.test.ts`): CI's second run,
// on PostgreSQL, runs only those files (scripts/test-all.ts, `--database-only`), so a unit-named file
// that opened one would be tested on the embedded database alone.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** The modules through which a test reaches a database of its own. */
const DATABASE_MODULES = /^import\b[^;]*\sfrom\s+"[./]*(testing\/db|testing\/postgres|lib\/db\/driver|lib\/db\/pglite|lib\/db)"/m;

function opensDatabase(source: string): boolean {
  return DATABASE_MODULES.test(source);
}

describe("test files that open a database are named .integration.", () => {
  it("recognises the imports that open one, and not the others", () => {
    expect(opensDatabase(`import { useTestDb } from "../../testing/db";`)).toBe(true);
    expect(opensDatabase(`import { adminQuery } from "../testing/postgres";`)).toBe(true);
    expect(opensDatabase(`import { openDb } from "../../lib/db";`)).toBe(true);
    expect(opensDatabase(`import { TICKETS } from "../../prisma/seed/demo";`)).toBe(false);
    expect(opensDatabase(`import { typed } from "../../lib/db/typed-sql";`)).toBe(false);
  });

  it("holds for every test file in the tree", () => {
    const files = ["lib", "app", "components", "scripts", "testing", "prisma"].flatMap((dir) =>
      readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".test.ts"))
        .map((f) => join(dir, f)),
    );
    expect(files.length).toBeGreaterThan(100);
    const misnamed = files.filter((f) => !f.includes(".integration.") && opensDatabase(readFileSync(f, "utf8")));
    expect(misnamed).toEqual([]);
  });
});
