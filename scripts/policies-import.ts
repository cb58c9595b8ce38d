// npm run policies:import -- <folder> --as <email>
// Imports every Markdown file under the folder (at any depth; README.md left out) as drafts written by
// the person named: a draft is nobody's until someone is its author, and that person may then not
// publish it (a second person must). All or nothing: on any problem every one is printed as
// file:line, nothing is written, and the exit code is 1. Works on the embedded database and on
// PostgreSQL (DATABASE_URL), like every command.
import { existsSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { runScript } from "./run-script";
import { findPerson } from "../lib/documents/find-person";
import { importDocuments, IMPORT_LIMITS, type TImportOutcome } from "../lib/documents/import-documents";
import { readPolicyFolder } from "../lib/documents/read-policy-folder";

const USAGE = "Usage: npm run policies:import -- <folder> --as you@example.com";

/** One outcome as a line a person reads. */
function line(o: TImportOutcome): string[] {
  switch (o.status) {
    case "created":
      return [`  created  ${o.name} → ${o.docKey}@${o.version} (draft)`, ...o.notes.map((n) => `           ${n}`)];
    case "updated":
      return [`  updated  ${o.name} → ${o.docKey}@${o.version} (your draft, updated in place)`, ...o.notes.map((n) => `           ${n}`)];
    case "unchanged":
      return [`  same     ${o.name} = ${o.docKey}@${o.version} (unchanged: nothing written)`];
    case "skipped":
      return [`  skipped  ${o.name}: ${o.reason}`];
    case "held":
      return [];
    case "problems":
      return o.problems.map((p) => `${o.name}${p.line ? `:${p.line}` : ""}: ${p.message}`);
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: { as: { type: "string" } }, allowPositionals: true, strict: true });
  if (positionals.length !== 1 || !values.as) {
    console.error(`${USAGE}\nName the person the drafts are written by (--as): it is refused without one.`);
    return 2;
  }
  const folder = positionals[0]!;
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    console.error(`${folder} is not a folder. ${USAGE}`);
    return 2;
  }
  const person = await findPerson({ email: values.as });
  if (!person || !person.active) {
    console.error(`No active person has the email ${values.as}: add them first (npm run user:add).`);
    return 2;
  }
  const files = readPolicyFolder(folder);
  console.log(
    `Read ${files.length} Markdown file${files.length === 1 ? "" : "s"} from ${folder} (at most ${IMPORT_LIMITS.files} per import).`,
  );
  if (!files.length) return 1;
  console.log(`Importing as ${person.name} (${person.role.toLowerCase()})…`);
  const result = await importDocuments({
    files,
    actor: { id: person.id, role: person.role },
    onProgress: (checked, of) => {
      if (checked % 50 === 0 || checked === of) console.log(`  checked ${checked}/${of} files`);
    },
  });
  if (!result.ok) {
    const problems = result.files.flatMap((o) => (o.status === "problems" ? line(o) : []));
    console.error(problems.join("\n"));
    console.error(
      `${problems.length} problem${problems.length === 1 ? "" : "s"} in ${result.files.filter((o) => o.status === "problems").length} file(s): nothing was imported.`,
    );
    return 1;
  }
  for (const o of result.files) for (const l of line(o)) console.log(l);
  const count = (status: TImportOutcome["status"]) => result.files.filter((o) => o.status === status).length;
  console.log(
    `Done: ${count("created")} created, ${count("updated")} updated, ${count("unchanged")} unchanged, ${count("skipped")} skipped.`,
  );
  return 0;
}

runScript(main);
