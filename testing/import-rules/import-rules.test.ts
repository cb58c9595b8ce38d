// The import rules of eslint.config.mjs, checked against fixtures that break them (a file for each
// rule, and one generated for every edge the graph of parts forbids) and against the real tree. Each fixture (fixtures/<path>.txt) is linted as if it were <path>, so it can stand where the
// rule looks without being part of the build or the normal lint run; its first line says what must
// happen: `// fixture: breaks <rule>` or `// fixture: allowed`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const fixturesDir = join(root, "testing/import-rules/fixtures");
const RULES = ["countersign/agent-never-imports-ledger", "countersign/layers", "countersign/lib-imports-no-app-seed-or-testing"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
}

const fixtures = files(fixturesDir).map((file) => {
  const text = readFileSync(file, "utf8");
  const header = /^\/\/ fixture: (?:breaks (\S+)|(allowed))$/m.exec(text.split("\n")[0] ?? "");
  return {
    name: relative(fixturesDir, file),
    lintAs: relative(fixturesDir, file).replace(/\.txt$/, ""),
    text,
    breaks: header?.[1] ?? null,
    allowed: !!header?.[2],
  };
});

type TPart = { paths: string[]; except?: string[]; may: string[] | "any" };
let PARTS: Record<string, TPart>;
let forbiddenEdges: () => { from: string; to: string }[];
let eslint: ESLint;
beforeAll(async () => {
  // Only this project's rules run: the messages of the others are never read here (npm run lint
  // runs them all), and running every rule of the config is most of what this file would cost.
  eslint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId.startsWith("countersign/") });
  ({ PARTS, forbiddenEdges } = (await import(join(root, "eslint.config.mjs"))) as {
    PARTS: Record<string, TPart>;
    forbiddenEdges: () => { from: string; to: string }[];
  });
});

async function ourRules(text: string, filePath: string): Promise<{ ruleId: string; message: string }[]> {
  const [result] = await eslint.lintText(text, { filePath: join(root, filePath) });
  return result!.messages.filter((m) => m.ruleId?.startsWith("countersign/")).map((m) => ({ ruleId: m.ruleId!, message: m.message }));
}

describe("import rules", () => {
  it("has a fixture that breaks each rule, and every fixture says what it expects", () => {
    expect(fixtures.filter((f) => !f.breaks && !f.allowed).map((f) => f.name)).toEqual([]);
    for (const rule of RULES) expect(fixtures.some((f) => f.breaks === rule)).toBe(true);
  });

  it.each(fixtures.filter((f) => f.breaks).map((f) => [f.name, f] as const))("%s fails its rule", async (_name, fixture) => {
    const found = await ourRules(fixture.text, fixture.lintAs);
    expect(found.map((m) => m.ruleId)).toContain(fixture.breaks);
  });

  it.each(fixtures.filter((f) => f.allowed).map((f) => [f.name, f] as const))("%s passes", async (_name, fixture) => {
    expect(await ourRules(fixture.text, fixture.lintAs)).toEqual([]);
  });

  it("places every part of lib/ in the graph", async () => {
    const covered = new Set(Object.values(PARTS).flatMap((p) => p.paths));
    const parts = readdirSync(join(root, "lib"))
      .filter((name) => statSync(join(root, "lib", name)).isDirectory() || (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)))
      .map((name) => `lib/${name}`);
    expect(parts.filter((p) => !covered.has(p))).toEqual([]);
  });

  it("declares a graph without a cycle, naming only its own parts", () => {
    const names = Object.keys(PARTS);
    for (const part of Object.values(PARTS)) if (part.may !== "any") expect(part.may.filter((m) => !names.includes(m))).toEqual([]);
    // Depth-first: a part on the current path met again is a cycle.
    const state = new Map<string, "open" | "done">();
    const visit = (name: string, path: string[]): string[] | null => {
      if (state.get(name) === "done") return null;
      if (state.get(name) === "open") return [...path, name];
      state.set(name, "open");
      const may = PARTS[name]!.may;
      for (const next of may === "any" ? [] : may) {
        const cycle = visit(next, [...path, name]);
        if (cycle) return cycle;
      }
      state.set(name, "done");
      return null;
    };
    expect(names.map((n) => visit(n, [])).find(Boolean) ?? null).toBeNull();
  });

  // One fixture per edge the graph forbids: a file of the part importing a module of the other.
  it("refuses every edge the graph forbids, and allows every edge it declares", { timeout: 120_000 }, async () => {
    const moduleOf = (name: string) => {
      const dir = PARTS[name]!.paths[0]!;
      if (dir.endsWith(".ts")) return dir;
      const file = readdirSync(join(root, dir))
        .filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f) && !PARTS[name]!.except?.includes(`${dir}/${f}`))
        .sort()[0]!;
      return `${dir}/${file}`;
    };
    const fixtureIn = (name: string) =>
      PARTS[name]!.paths[0]!.endsWith(".ts") ? PARTS[name]!.paths[0]! : `${PARTS[name]!.paths[0]}/edge-fixture.ts`;
    const importing = (from: string, to: string) =>
      `import * as other from "@/${moduleOf(to).replace(/\.ts$/, "")}";\nexport const used = other;\n`;
    const unrefused: string[] = [];
    for (const { from, to } of forbiddenEdges()) {
      const found = await ourRules(importing(from, to), fixtureIn(from));
      if (!found.some((m) => m.ruleId === "countersign/layers")) unrefused.push(`${from} → ${to}`);
    }
    expect(unrefused).toEqual([]);
    const refused: string[] = [];
    for (const [from, part] of Object.entries(PARTS)) {
      for (const to of part.may === "any" ? [] : part.may) {
        if ((await ourRules(importing(from, to), fixtureIn(from))).some((m) => m.ruleId === "countersign/layers"))
          refused.push(`${from} → ${to}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it("passes on the real tree", { timeout: 240_000 }, async () => {
    const results = await eslint.lintFiles(["lib"]);
    const broken = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId?.startsWith("countersign/")).map((m) => `${relative(root, r.filePath)}:${m.line} ${m.ruleId}`),
    );
    expect(broken).toEqual([]);
  });
});
