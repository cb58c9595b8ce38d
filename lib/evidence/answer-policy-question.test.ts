import { describe, expect, it } from "vitest";
import { buildContextPack } from "./answer-policy-question";
import type { TRetrievedPassage } from "./retrieve-passages";

describe("buildContextPack", () => {
  const passage = (
    citation: string,
    score: number,
    coverage: number,
    chars = 100,
    audience: "customer" | "staff" = "customer",
  ): TRetrievedPassage => ({
    chunkId: `${citation}${score}${coverage}`,
    docKey: citation.split("@")[0]!,
    version: 1,
    citation,
    title: "",
    heading: "",
    text: "x".repeat(chars),
    locale: "en",
    audience,
    score,
    coverage,
  });
  const limits = { minScore: 0.1, minCoverage: 0.5, minCoverageInDocument: 0.2, maxChunks: 2, maxChars: 250 };

  it("keeps, in the order retrieval ranked them, only passages above the score and coverage floors, within the limits", () => {
    const pack = buildContextPack(
      [passage("a@1", 0.9, 0.25), passage("b@1", 0.05, 1), passage("e@1", 0.8, 0.9), passage("c@1", 0.5, 0.6), passage("d@1", 0.4, 1)],
      limits,
    );
    expect(pack.map((p) => p.citation)).toEqual(["e@1", "c@1"]);
  });

  it("stops before the character limit", () => {
    expect(buildContextPack([passage("a@1", 0.9, 1, 200), passage("b@1", 0.8, 1, 100)], limits).map((p) => p.citation)).toEqual(["a@1"]);
  });

  it("takes a further passage of a document already in the pack with less coverage, and none of another document", () => {
    const pack = buildContextPack([passage("a@1", 0.9, 0.8), passage("b@1", 0.9, 0.3), passage("a@1", 0.5, 0.3)], {
      ...limits,
      maxChunks: 3,
    });
    expect(pack.map((p) => [p.citation, p.coverage])).toEqual([
      ["a@1", 0.8],
      ["a@1", 0.3],
    ]);
  });

  it("brings in each document that answers before a further passage of one already in", () => {
    const pack = buildContextPack(
      [passage("a@1", 0.9, 0.8), passage("a@1", 0.5, 0.3), passage("b@1", 0.9, 0.6), passage("c@1", 0.9, 0.7)],
      {
        ...limits,
        maxChunks: 3,
        maxChars: 1000,
      },
    );
    expect(pack.map((p) => [p.citation, p.coverage])).toEqual([
      ["a@1", 0.8],
      ["b@1", 0.6],
      ["c@1", 0.7],
    ]);
    // With room, the further passage comes too, in the order retrieval ranked it.
    const roomy = buildContextPack([passage("a@1", 0.9, 0.8), passage("a@1", 0.5, 0.3), passage("b@1", 0.9, 0.6)], {
      ...limits,
      maxChunks: 3,
      maxChars: 1000,
    });
    expect(roomy.map((p) => [p.citation, p.coverage])).toEqual([
      ["a@1", 0.8],
      ["a@1", 0.3],
      ["b@1", 0.6],
    ]);
  });

  it("lets a document in only for a passage the customer may read; its staff-only passages come with it", () => {
    const staffFirst = [passage("s@1", 0.9, 0.9, 100, "staff"), passage("s@1", 0.9, 0.3)];
    expect(buildContextPack(staffFirst, { ...limits, maxChunks: 3 })).toEqual([]);
    const customerFirst = [passage("c@1", 0.9, 0.6), passage("c@1", 0.9, 0.9, 100, "staff")];
    expect(buildContextPack(customerFirst, { ...limits, maxChunks: 3 }).map((p) => p.audience)).toEqual(["customer", "staff"]);
  });
});
