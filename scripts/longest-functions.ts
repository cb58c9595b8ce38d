// The longest functions, reported by npm test: none in lib/ (nor an action, route or view model in
// app/) over 80 lines, no component in app/ or components/ over 150. The functions still over their limit are listed below with their length
// today; the check fails when a new one goes over, when a listed one grows, and when a listed one
// fits again (take it off the list). So the list only shrinks.
//   npx tsx scripts/longest-functions.ts [--top N]
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import ts from "typescript";

const LIMITS = { lib: 80, ui: 150 } as const;

/** Over their limit, each awaiting its split: "<file> <function>" → lines. None today: a function that grows past its limit is split, not listed. */
const STILL_LONG: Record<string, number> = {};

type TFunction = { file: string; name: string; lines: number };

function functionsIn(file: string): TFunction[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, kind);
  const found: TFunction[] = [];
  const visit = (node: ts.Node, name?: string) => {
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, name: (node as ts.FunctionDeclaration).name?.getText() ?? name ?? "(anonymous)", lines: end - start + 1 });
    }
    // An arrow function takes the name of the variable or property it is assigned to.
    const named = ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node) ? node.name.getText() : undefined;
    ts.forEachChild(node, (child) => visit(child, named));
  };
  visit(source);
  return found;
}

const { values } = parseArgs({ options: { top: { type: "string", default: "5" } } });
const files = execFileSync("git", ["ls-files", "lib/**/*.ts", "app/**/*.ts", "app/**/*.tsx", "components/**/*.tsx"], { encoding: "utf8" })
  .split("\n")
  .filter((f) => f && !/\.test\.tsx?$/.test(f));
const all = files.flatMap(functionsIn).sort((a, b) => b.lines - a.lines);
// A component renders markup; everything else (lib/, and the actions, routes and view models in app/) is held to lib's limit.
const limitOf = (f: TFunction) => (f.file.endsWith(".tsx") ? LIMITS.ui : LIMITS.lib);
const problems: string[] = [];
for (const f of all) {
  const key = `${f.file} ${f.name}`;
  const known = STILL_LONG[key];
  if (f.lines > limitOf(f) && known === undefined) problems.push(`${key}: ${f.lines} lines, over ${limitOf(f)}: split it`);
  else if (known !== undefined && f.lines > known)
    problems.push(`${key}: ${f.lines} lines, grown from ${known}: split it rather than grow it`);
  else if (known !== undefined && f.lines <= limitOf(f))
    problems.push(`${key}: ${f.lines} lines, within ${limitOf(f)} now: take it off STILL_LONG`);
}
for (const key of Object.keys(STILL_LONG))
  if (!all.some((f) => `${f.file} ${f.name}` === key)) problems.push(`${key}: gone: take it off STILL_LONG`);

console.log(
  `Longest functions (lib/ limit ${LIMITS.lib} lines, components ${LIMITS.ui}; ${Object.keys(STILL_LONG).length} still over, listed in this script):`,
);
for (const f of all.slice(0, Number(values.top))) console.log(`  ${String(f.lines).padStart(4)}  ${f.file}  ${f.name}`);
const ui = all.find((f) => !f.file.startsWith("lib/"));
if (ui) console.log(`  longest component: ${ui.lines} lines, ${ui.file} ${ui.name}`);
for (const p of problems) console.error(`✗ ${p}`);
process.exit(problems.length ? 1 : 0);
