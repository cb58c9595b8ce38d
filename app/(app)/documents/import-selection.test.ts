import { describe, expect, it } from "vitest";
import { decodePicked, formatBytes, isMarkdownName, mergeSelection, payloadBytes, pickedName, uploadProblem } from "./import-selection";

const LIMITS = { maxFiles: 3, maxFileBytes: 100, maxPayloadBytes: 400 };
const utf8 = (text: string) => new TextEncoder().encode(text);

describe("what the import form sends", () => {
  it("takes .md and .markdown files, whatever their case, and nothing else", () => {
    expect(["a.md", "b.MD", "c.markdown", "policies/d.md"].every(isMarkdownName)).toBe(true);
    expect(["notes.txt", "image.png", "md", "a.md.bak", ".DS_Store"].some(isMarkdownName)).toBe(false);
  });

  it("names a file of a chosen folder by its path inside it", () => {
    expect(pickedName({ name: "a.md", webkitRelativePath: "policies/returns/a.md" })).toBe("policies/returns/a.md");
    expect(pickedName({ name: "a.md", webkitRelativePath: "" })).toBe("a.md");
  });

  it("refuses bytes that are not UTF-8 rather than sending them repaired", () => {
    const picked = decodePicked("latin1.md", new Uint8Array([0x74, 0xe9, 0x6c, 0xe9]), LIMITS);
    expect(picked.text).toBeNull();
    expect(picked.problem).toMatch(/not UTF-8/);
    expect(decodePicked("ok.md", utf8("título: política"), LIMITS)).toEqual({
      name: "ok.md",
      bytes: 18,
      text: "título: política",
      problem: null,
    });
  });

  it("refuses a file over the size a document may have, saying both sizes", () => {
    expect(decodePicked("big.md", utf8("x".repeat(101)), LIMITS).problem).toBe(
      "It is 101 B; a document may be at most 100 B. Split it into several documents.",
    );
    expect(decodePicked("edge.md", utf8("x".repeat(100)), LIMITS).problem).toBeNull();
  });

  it("replaces a file chosen again by its new content, and keeps the rest", () => {
    const a1 = { name: "a.md", bytes: 1, text: "1", problem: null };
    const a2 = { name: "a.md", bytes: 1, text: "2", problem: null };
    const b = { name: "b.md", bytes: 1, text: "b", problem: null };
    expect(mergeSelection([b, a1], [a2])).toEqual([a2, b]);
  });

  it("refuses an upload of more files, or more bytes, than one takes", () => {
    const file = (n: number, size = 10) => ({ name: `${n}.md`, text: "x".repeat(size) });
    expect(uploadProblem([file(1), file(2), file(3)], LIMITS)).toBeNull();
    expect(uploadProblem([file(1), file(2), file(3), file(4)], LIMITS)).toMatch(/^4 files are more than one upload takes \(3\)/);
    const big = [file(1, 190), file(2, 190)];
    expect(payloadBytes(big)).toBeGreaterThan(400);
    expect(uploadProblem(big, LIMITS)).toMatch(/more than one upload takes \(400 B\): import them in parts\.$/);
  });

  it("counts the bytes the action's body carries: escaped line ends and multi-byte letters included", () => {
    expect(payloadBytes([{ name: "a.md", text: "é\n" }])).toBe(
      new TextEncoder().encode('[{"files":[{"name":"a.md","text":"é\\n"}]}]').length,
    );
  });

  it("says sizes in the units of the limits", () => {
    expect([512, 256 * 1024, 4 * 1024 * 1024 - 64 * 1024, 1536].map(formatBytes)).toEqual(["512 B", "256 KB", "3.9 MB", "1.5 KB"]);
  });
});
