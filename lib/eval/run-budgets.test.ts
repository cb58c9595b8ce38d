// The time limits an episode's run is graded under: room for a local run whose episode says nothing
// about time, so a busy machine cannot turn a prompt tool into tool_timeout; the episode's own limits
// otherwise, and the manifest's for a run on a configured model.
import { describe, expect, it } from "vitest";
import type { TEpisode } from "./episode";
import { runBudgets } from "./play-episode";

const episode = (budgets?: TEpisode["budgets"]) => ({ budgets }) as TEpisode;

describe("runBudgets", () => {
  it("gives a local run without time limits of its own room beyond the manifest's 2 s a tool", () => {
    const limits = runBudgets(episode(), true);
    expect(limits?.toolTimeoutMs).toBeGreaterThanOrEqual(10_000);
    expect(limits?.maxWallMs).toBeGreaterThanOrEqual(limits!.toolTimeoutMs!);
    expect(runBudgets(episode({ maxSteps: 3 }), true)).toMatchObject({ maxSteps: 3, toolTimeoutMs: limits?.toolTimeoutMs });
  });

  it("keeps an episode's own time limits, and the manifest's for a run that waits on something else", () => {
    expect(runBudgets(episode({ toolTimeoutMs: 150 }), true)).toEqual({ toolTimeoutMs: 150 });
    expect(runBudgets(episode({ maxWallMs: 150 }), true)).toEqual({ maxWallMs: 150 });
    expect(runBudgets(episode(), false)).toBeUndefined();
    expect(runBudgets(episode({ maxTokens: 6000 }), false)).toEqual({ maxTokens: 6000 });
  });
});
