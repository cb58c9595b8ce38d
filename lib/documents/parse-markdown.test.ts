// The one parser every way a document comes in goes through: what becomes a passage, under which
// heading and for whom, and what is refused with its line.
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../contracts/canonical";
import { MAX_DOCUMENT_CHARS, MAX_PASSAGE_CHARS, parsePolicyMarkdown, type TParseResult } from "./parse-markdown";

const FRONT = ["---", "key: returns-eu", 'title: "EU returns: all items"', "locale: de-CH", "owner: Support Operations", "---"];

const ok = (result: TParseResult) => {
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.document;
};
const problems = (result: TParseResult) => (result.ok ? [] : result.problems);

describe("parsePolicyMarkdown", () => {
  it("reads the front matter, and makes each paragraph, list and quotation of a section one passage under its heading", () => {
    const doc = ok(
      parsePolicyMarkdown(
        [
          ...FRONT,
          "Opening words before any heading.",
          "",
          "## Time limits",
          "Items may be returned",
          "within 30 days.",
          "",
          "- unworn",
          "- with tags!",
          "- in the box",
          "",
          "> Quoted from the law.",
          "",
          "# EU returns: all items",
          "Under the title again.",
        ].join("\n"),
      ),
    );
    expect([doc.docKey, doc.title, doc.locale, doc.owner, doc.section, doc.audience]).toEqual([
      "returns-eu",
      "EU returns: all items",
      "de-CH",
      "Support Operations",
      "EU returns: all items",
      "customer",
    ]);
    expect(doc.passages).toEqual([
      { heading: "EU returns: all items: EU returns: all items", text: "Opening words before any heading.", audience: "customer" },
      { heading: "EU returns: all items: Time limits", text: "Items may be returned within 30 days.", audience: "customer" },
      { heading: "EU returns: all items: Time limits", text: "unworn. with tags! in the box.", audience: "customer" },
      { heading: "EU returns: all items: Time limits", text: "Quoted from the law.", audience: "customer" },
      // A first-level heading repeating the title starts no section of its own.
      { heading: "EU returns: all items: EU returns: all items", text: "Under the title again.", audience: "customer" },
    ]);
  });

  it("keeps a section marked {audience=staff} from customers, and only that section", () => {
    const doc = ok(
      parsePolicyMarkdown(
        [
          ...FRONT,
          "## Refunds",
          "Refunds go to the card.",
          "## Exceptions {audience=staff}",
          "Offer a repair first.",
          "## Contact",
          "Write to us.",
        ].join("\n"),
      ),
    );
    expect(doc.passages.map((p) => [p.heading, p.audience])).toEqual([
      ["EU returns: all items: Refunds", "customer"],
      ["EU returns: all items: Exceptions", "staff"],
      ["EU returns: all items: Contact", "customer"],
    ]);
    const staffDoc = ok(
      parsePolicyMarkdown(
        ["---", "key: notes", "title: Notes", "audience: staff", "---", "Internal.", "## Public {audience=customer}", "Shared."].join("\n"),
      ),
    );
    expect(staffDoc.passages.map((p) => p.audience)).toEqual(["staff", "customer"]);
  });

  it("takes the section of text before any heading from the front matter, as the demo seed's documents do", () => {
    const doc = ok(
      parsePolicyMarkdown(
        ["---", "key: sla", "title: Support service levels", "section: Response times", "---", "Within 24 hours."].join("\n"),
      ),
    );
    expect(doc.passages).toEqual([{ heading: "Support service levels: Response times", text: "Within 24 hours.", audience: "customer" }]);
  });

  it("reads a file with a byte-order mark and Windows line endings as the same document", () => {
    const unix = [...FRONT, "## Time limits", "Within 30 days."].join("\n");
    const windows = `\uFEFF${unix.replaceAll("\n", "\r\n")}`;
    expect(ok(parsePolicyMarkdown(windows))).toEqual(ok(parsePolicyMarkdown(unix)));
  });

  it("stores the source without the seed-only keys, hashed: the seed's version and status change no content hash", () => {
    const plain = [...FRONT, "Text."].join("\n");
    const seeded = ["---", "version: 3", "status: retired", ...FRONT.slice(1), "Text."].join("\n");
    const a = ok(parsePolicyMarkdown(plain));
    const b = ok(parsePolicyMarkdown(seeded));
    expect([b.version, b.status]).toEqual([3, "retired"]);
    expect(b.body).toBe(a.body);
    expect(b.body).not.toMatch(/version|status/);
    expect(a.contentHash).toBe(sha256Hex(a.body));
  });

  it("names every front-matter problem with its line", () => {
    const result = parsePolicyMarkdown(
      ["---", "key: Bad Key", "title: T", "colour: blue", "just words", "title: again", "locale: english", "---", "Text."].join("\n"),
    );
    expect(problems(result).map((p) => [p.line, p.message])).toEqual([
      [4, expect.stringMatching(/^Unknown front matter "colour"/)],
      [5, expect.stringMatching(/^Front matter lines are "name: value"/)],
      [6, '"title" is given twice in the front matter.'],
      [1, expect.stringMatching(/^The key "Bad Key" is not lower-case/)],
      [1, expect.stringMatching(/^The locale "english" is not a language code/)],
    ]);
    expect(problems(parsePolicyMarkdown("---\nkey: k\ntitle: T\nText.\n"))).toEqual([
      { line: 1, message: "The front matter opened with --- is never closed with a line of ---." },
    ]);
    expect(problems(parsePolicyMarkdown("---\nkey: k\n---\nText.")).map((p) => p.message)).toEqual([
      'The front matter names no title ("title: …").',
    ]);
    expect(problems(parsePolicyMarkdown("---\nkey: k\ntitle: T\nversion: two\n---\nText.")).map((p) => p.message)).toEqual([
      'The version "two" is not a positive whole number.',
    ]);
  });

  it("takes the key a caller derives from the file name only when the front matter names none", () => {
    expect(ok(parsePolicyMarkdown("---\ntitle: T\n---\nText.", { docKey: "from-name" })).docKey).toBe("from-name");
    expect(ok(parsePolicyMarkdown("---\nkey: own\ntitle: T\n---\nText.", { docKey: "from-name" })).docKey).toBe("own");
  });

  it("refuses a control character, a document with nothing to cite, and what is too long", () => {
    expect(problems(parsePolicyMarkdown("---\nkey: k\ntitle: T\n---\nText\u0000here."))[0]!.message).toMatch(/^The document /);
    expect(problems(parsePolicyMarkdown("---\nkey: k\ntitle: T\n---\nA bell\u0007.")).length).toBe(1);
    expect(problems(parsePolicyMarkdown("---\nkey: k\ntitle: T\n---\n## Only a heading\n"))).toEqual([
      { message: "The document has no paragraph: nothing in it could be cited." },
    ]);
    expect(problems(parsePolicyMarkdown(`---\nkey: k\ntitle: T\n---\n${"x".repeat(MAX_DOCUMENT_CHARS)}`))[0]!.message).toMatch(
      /longer than 200,000 characters/,
    );
    const long = problems(parsePolicyMarkdown(`---\nkey: k\ntitle: T\n---\nShort.\n\n${"word ".repeat(MAX_PASSAGE_CHARS / 4)}`));
    expect(long).toEqual([{ line: 7, message: "A passage is longer than 4,000 characters: split it into paragraphs." }]);
  });
});
