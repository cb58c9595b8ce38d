import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { THESAURUS } from "./thesaurus";

describe("the thesaurus", () => {
  it("has no entry that is a word the language's policies use: those are searched as themselves", () => {
    for (const [language, entries] of Object.entries(THESAURUS)) {
      const dir = join("docs/policies", language);
      const words = new Set(
        readdirSync(dir).flatMap(
          (f) =>
            readFileSync(join(dir, f), "utf8")
              .toLowerCase()
              .match(/[\p{L}\p{N}]+/gu) ?? [],
        ),
      );
      expect(
        Object.keys(entries).filter((w) => words.has(w)),
        language,
      ).toEqual([]);
    }
  });
});
