import { describe, expect, it } from "vitest";
import { bodySnippet, containsPattern, highlightSegments, highlightTerms, prefixTsQuery, searchTerms } from "./search-terms";

describe("searchTerms", () => {
  it("reads a ticket number with or without #, and nothing else as one", () => {
    expect(searchTerms(" #1042 ").number).toBe(1042);
    expect(searchTerms("1042").number).toBe(1042);
    expect(searchTerms("ORD-1042").number).toBeNull();
    expect(searchTerms("12345678901").number).toBeNull();
    // With #, the text names a ticket only: no word or fragment search besides.
    expect(searchTerms("#1042")).toEqual({ number: 1042, words: [], compounds: [], fragment: null });
    expect(searchTerms("1042")).toEqual({ number: 1042, words: ["1042"], compounds: [], fragment: "1042" });
  });

  it("keeps a hyphenated word with a digit whole (one lexeme), in place of its parts", () => {
    expect(searchTerms("ORD-S00420")).toMatchObject({ words: [], compounds: ["ord-s00420"], fragment: "ord-s00420" });
    expect(searchTerms("cracked ORD-1001 screen")).toMatchObject({ words: ["cracked", "screen"], compounds: ["ord-1001"] });
    // Without a digit the parts stay words: the english configuration stems a hyphenated word's parts.
    expect(searchTerms("well-known")).toMatchObject({ words: ["well", "known"], compounds: [] });
  });

  it("keeps fragments of three characters or more, lower-cased", () => {
    expect(searchTerms("Ab").fragment).toBeNull();
    expect(searchTerms(" Ana.K ").fragment).toBe("ana.k");
    expect(searchTerms("Ana.K").words).toEqual(["ana", "k"]);
  });
});

describe("prefixTsQuery", () => {
  it("quotes every word as a literal prefix", () => {
    expect(prefixTsQuery(["refund", "o'brien"])).toBe("'refund':* & 'o''brien':*");
    expect(prefixTsQuery([])).toBeNull();
  });
});

describe("containsPattern", () => {
  it("escapes LIKE's wildcards and its escape character", () => {
    expect(containsPattern("a_b%c\\d")).toBe("%a\\_b\\%c\\\\d%");
  });
});

describe("highlightSegments", () => {
  it("marks every occurrence of the longest term first, keeping the text's own case", () => {
    const terms = highlightTerms("Ana K");
    expect(terms).toEqual(["ana k", "ana", "k"]);
    expect(highlightSegments("Ana Kowalski, ana", ["ana k", "ana"])).toEqual([
      { text: "Ana K", match: true },
      { text: "owalski, ", match: false },
      { text: "ana", match: true },
    ]);
  });

  it("marks nothing when lower-casing would move the offsets", () => {
    expect(highlightSegments("İstanbul ana", ["ana"])).toEqual([{ text: "İstanbul ana", match: false }]);
  });
});

describe("bodySnippet", () => {
  it("starts shortly before the first match, with ellipses where it cuts", () => {
    const body = `${"x ".repeat(100)}the parcel is missing ${"y ".repeat(100)}`;
    const snippet = bodySnippet(body, ["parcel"]);
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    expect(snippet).toContain("the parcel is missing");
    expect(bodySnippet("short body", ["nothing"])).toBe("short body");
  });
});
