// `npm run eval` is started from package.json, not from code: it must carry the flags every grading
// process is started with, as the processes the app and the bench start do.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GRADING_V8_FLAGS } from "./grading-flags";

describe("GRADING_V8_FLAGS", () => {
  it("are on npm run eval's command line, before its script", () => {
    const script = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.eval!;
    const words = script.split(/\s+/);
    for (const flag of GRADING_V8_FLAGS) expect(words.indexOf(flag)).toBeGreaterThan(-1);
    for (const flag of GRADING_V8_FLAGS) expect(words.indexOf(flag)).toBeLessThan(words.indexOf("scripts/eval.ts"));
  });
});
