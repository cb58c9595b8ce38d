import { describe, expect, it } from "vitest";
import { DatasetError, parseDataset } from "./episode";

const header = JSON.stringify({ datasetVersion: "v-test" });
const episode = { id: "e1", title: "t", ticket: { seeded: "demo-cracked-tablet" }, planner: "rule", expect: { status: "needs_human", reason: "draft_ready_for_review", path: [], citations: [], refunds: 0 } };

describe("parseDataset", () => {
  it("reads a header and episodes, with defaults", () => {
    const d = parseDataset(`${header}\n${JSON.stringify(episode)}\n\n`, "sha256:x");
    expect(d).toMatchObject({ version: "v-test", hash: "sha256:x", episodes: [{ id: "e1", mode: "live" }] });
  });

  it.each([
    [`${JSON.stringify(episode)}`, /header/],
    [`${header}\n{not json`, /line 2: not JSON/],
    [`${header}\n${JSON.stringify({ ...episode, expect: { ...episode.expect, reason: "felt_like_it" } })}`, /line 2: expect\.reason/],
    [`${header}\n${JSON.stringify({ ...episode, surprise: 1 })}`, /line 2/],
    [`${header}\n${JSON.stringify(episode)}\n${JSON.stringify(episode)}`, /line 3: episode id e1 appears twice/],
  ])("refuses a bad dataset with the line and field: %#", (text, message) => {
    expect(() => parseDataset(text, "h")).toThrow(DatasetError);
    expect(() => parseDataset(text, "h")).toThrow(message);
  });
});
