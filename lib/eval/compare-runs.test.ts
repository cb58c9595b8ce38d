// Two runs compared episode by episode: an episode passes a run only when every trial passed; the
// change is read from both sides; a changed episode's path diff is A's path against B's.
import { describe, expect, it } from "vitest";
import { compareRuns, type TComparedRow } from "./compare-runs";

const row = (episodeId: string, passed: boolean, path: string[], trial = 1): TComparedRow => ({
  episodeId,
  trial,
  passed,
  actual: { status: passed ? "needs_human" : "blocked", reason: "r", path, citations: [], refunds: 0, proposal: null },
  explanation: passed ? null : `${episodeId} failed`,
});

describe("compareRuns", () => {
  it("names what was fixed, broken, unchanged and graded by one run only, broken first", () => {
    const a = [row("fix", false, ["x", "y"]), row("break", true, ["p", "q"]), row("same", true, ["s"]), row("gone", true, [])];
    const b = [row("fix", true, ["x", "z"]), row("break", false, ["p"]), row("same", true, ["s"]), row("new", false, ["n"])];
    const { episodes, counts } = compareRuns(a, b);
    expect(counts).toEqual({ fixed: 1, broken: 1, unchanged: 1, only_a: 1, only_b: 1 });
    expect(episodes.map((e) => [e.episodeId, e.change])).toEqual([
      ["break", "broken"],
      ["fix", "fixed"],
      ["gone", "only_a"],
      ["new", "only_b"],
      ["same", "unchanged"],
    ]);
    const fix = episodes.find((e) => e.episodeId === "fix")!;
    expect(fix.pathDiff!.firstDifference).toBe(2);
    expect(fix.pathDiff!.steps[1]).toEqual({ step: 2, expected: "y", actual: "z", same: false });
    expect(episodes.find((e) => e.episodeId === "break")!.pathDiff!.steps[1]).toEqual({ step: 2, expected: "q", actual: null, same: false });
    expect(episodes.find((e) => e.episodeId === "same")!.pathDiff).toBeNull();
  });

  it("counts an episode as passing a run only when every trial passed", () => {
    const a = [row("e", true, ["x"], 1), row("e", true, ["x"], 2)];
    const b = [row("e", true, ["x"], 1), row("e", false, ["y"], 2)];
    const [e] = compareRuns(a, b).episodes;
    expect(e).toMatchObject({ change: "broken", b: { passed: false, explanation: "e failed" } });
    // The path shown is each run's first trial.
    expect(e!.pathDiff!.firstDifference).toBeNull();
  });
});
