import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundleWorker, gradingWorkerFile, removeStaleBundles } from "./worker-bundle";

/** Every module specifier the bundle still imports, static or dynamic. */
function importedSpecifiers(code: string): string[] {
  const found = [...code.matchAll(/\bimport\s*(?:[\w*{}\s,]+from\s*)?["']([^"']+)["']/g), ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)];
  return found.map((m) => m[1]!);
}

describe("the grading worker's bundle", () => {
  it("holds all of our code: what it still imports is a package or a builtin, never a file of ours (a worker has no TypeScript loader)", async () => {
    const code = await bundleWorker();
    const specifiers = importedSpecifiers(code);
    expect(specifiers.length).toBeGreaterThan(0);
    const builtins = new Set(builtinModules);
    const ours = specifiers.filter((s) => s.startsWith(".") || s.startsWith("/") || s.startsWith("@/") || s.endsWith(".ts"));
    expect(ours).toEqual([]);
    for (const s of specifiers.filter((s) => s.startsWith("node:") || builtins.has(s))) expect(builtins.has(s.replace(/^node:/, ""))).toBe(true);
    // The worker's own code is in it: it opens its database from the image it is sent.
    expect(code).toContain("function openGradingImage(");
  });

  it("is one file per content, shared by every call of a process", async () => {
    const file = await gradingWorkerFile();
    expect(await gradingWorkerFile()).toBe(file);
    expect(existsSync(file)).toBe(true);
    const { createHash } = await import("node:crypto");
    const code = await readFile(file, "utf8");
    expect(basename(file)).toBe(`grade-worker-${createHash("sha256").update(code).digest("hex").slice(0, 24)}.mjs`);
    expect(code).toBe(await bundleWorker());
  });

  it("removes bundles unused for a day, never the one in use nor anything else in its folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "worker-bundles-"));
    try {
      const now = Date.now();
      const names = ["grade-worker-old.mjs", "grade-worker-recent.mjs", "grade-worker-kept.mjs", "other-old.tar", "grade-worker-old.mjs.1.ab.partial"];
      for (const name of names) await writeFile(join(dir, name), "x");
      const dayAndMore = new Date(now - 25 * 60 * 60 * 1000);
      for (const name of ["grade-worker-old.mjs", "grade-worker-kept.mjs", "other-old.tar", "grade-worker-old.mjs.1.ab.partial"]) await utimes(join(dir, name), dayAndMore, dayAndMore);
      await utimes(join(dir, "grade-worker-recent.mjs"), new Date(now - 60_000), new Date(now - 60_000));
      await removeStaleBundles(dir, join(dir, "grade-worker-kept.mjs"), now);
      expect(names.filter((name) => existsSync(join(dir, name)))).toEqual(["grade-worker-recent.mjs", "grade-worker-kept.mjs", "other-old.tar", "grade-worker-old.mjs.1.ab.partial"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
