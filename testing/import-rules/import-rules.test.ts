// The import rules of eslint.config.mjs, checked against fixtures that break them and against the real
// tree. Each fixture (fixtures/<path>.txt) is linted as if it were <path>, so it can stand where the
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
  return { name: relative(fixturesDir, file), lintAs: relative(fixturesDir, file).replace(/\.txt$/, ""), text, breaks: header?.[1] ?? null, allowed: !!header?.[2] };
});

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
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

  it("places every part of lib/ in a layer", async () => {
    const { LAYERS } = (await import(join(root, "eslint.config.mjs"))) as { LAYERS: { paths: string[] }[] };
    const covered = new Set(LAYERS.flatMap((l) => l.paths));
    const parts = readdirSync(join(root, "lib"))
      .filter((name) => statSync(join(root, "lib", name)).isDirectory() || (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)))
      .map((name) => `lib/${name}`);
    expect(parts.filter((p) => !covered.has(p))).toEqual([]);
  });

  it("passes on the real tree", { timeout: 240_000 }, async () => {
    const results = await eslint.lintFiles(["lib"]);
    const broken = results.flatMap((r) => r.messages.filter((m) => m.ruleId?.startsWith("countersign/")).map((m) => `${relative(root, r.filePath)}:${m.line} ${m.ruleId}`));
    expect(broken).toEqual([]);
  });
});
