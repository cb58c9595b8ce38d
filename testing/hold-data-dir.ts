// A child process for the data-directory lock test: opens an embedded database, migrates it, says
// "holding", and keeps it open until killed. Usage: tsx testing/hold-data-dir.ts DIR
import { openDb } from "../lib/db";
import { migrationSql } from "../lib/db/migrate";

const handle = openDb({ kind: "pglite", dir: process.argv[2]! });
for (const { sql } of await migrationSql()) await handle.pglite!.exec(sql);
console.log("holding");
setInterval(() => {}, 1 << 30);
