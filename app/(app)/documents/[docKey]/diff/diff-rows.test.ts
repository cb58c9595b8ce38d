import { describe, expect, it } from "vitest";
import { diffLines } from "diff";
import { diffRows } from "./diff-rows";

const runs = (before: string, after: string) =>
  diffLines(before, after).map((c) => ({
    kind: c.added ? ("added" as const) : c.removed ? ("removed" as const) : ("same" as const),
    text: c.value,
  }));
const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from}`).join("\n") + "\n";

describe("the rows of a line diff", () => {
  it("numbers each line in the version it belongs to: removed in the old, added in the new, the others in both", () => {
    expect(diffRows(runs("a\nb\nc\n", "a\nB\nc\nd\n"))).toEqual([
      { kind: "same", text: "a", oldLine: 1, newLine: 1 },
      { kind: "removed", text: "b", oldLine: 2, newLine: null },
      { kind: "added", text: "B", oldLine: null, newLine: 2 },
      { kind: "same", text: "c", oldLine: 3, newLine: 3 },
      { kind: "added", text: "d", oldLine: null, newLine: 4 },
    ]);
  });

  it("folds unchanged lines further than the context from any change, saying how many and where they start", () => {
    const before = lines(20);
    const after = before.replace("line 10\n", "line ten\n");
    const rows = diffRows(runs(before, after), 2);
    expect(rows[0]).toEqual({ kind: "folded", lines: 7, oldLine: 1, newLine: 1 });
    expect(rows.filter((r) => r.kind === "same").map((r) => ("text" in r ? r.text : ""))).toEqual([
      "line 8",
      "line 9",
      "line 11",
      "line 12",
    ]);
    expect(rows.at(-1)).toEqual({ kind: "folded", lines: 8, oldLine: 13, newLine: 13 });
  });

  it("shows a single unchanged line between two contexts instead of folding it", () => {
    const before = lines(7);
    const after = before.replace("line 1\n", "line one\n").replace("line 7\n", "line seven\n");
    const rows = diffRows(runs(before, after), 2);
    expect(rows.some((r) => r.kind === "folded")).toBe(false);
    expect(rows.filter((r) => r.kind === "same")).toHaveLength(5);
  });

  it("keeps an empty line as a line, and a text without a final line end whole", () => {
    expect(diffRows(runs("a\n\nb", "a\n\nc"))).toEqual([
      { kind: "same", text: "a", oldLine: 1, newLine: 1 },
      { kind: "same", text: "", oldLine: 2, newLine: 2 },
      { kind: "removed", text: "b", oldLine: 3, newLine: null },
      { kind: "added", text: "c", oldLine: null, newLine: 3 },
    ]);
  });
});
