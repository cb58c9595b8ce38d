// The documents list at a team's size (PGlite, and PostgreSQL with DATABASE_URL): 500 drafts imported
// the way a team imports them, on top of the demo's documents; each page, filtered or not, is one
// statement, and says how many documents there are even when it is past the last one (a link kept from
// before a filter or an import must not read as "no documents").
import { beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/seed/demo";
import { useTestDb } from "../../testing/db";
import { policyMarkdown } from "../../testing/evaluations";
import { newUser } from "../../testing/runs";
import { importDocuments } from "./import-documents";
import { listDocuments } from "./list-documents";

const testDb = useTestDb(seedDemo);
const TEAM = 500;
let demo = 0;

const key = (i: number) => `team-${String(i).padStart(3, "0")}`;

beforeAll(async () => {
  const { client } = testDb();
  demo = new Set((await client.policyDocument.findMany({ select: { docKey: true } })).map((d) => d.docKey)).size;
  const author = await newUser(client, "SPECIALIST");
  // A few kilobytes each, as a team's handbooks are: the list must not carry their bodies around.
  const paragraph = "Refunds follow the order's payment method and take up to ten business days to arrive. ".repeat(30);
  const files = Array.from({ length: TEAM }, (_, i) => ({
    name: `${key(i)}.md`,
    text: policyMarkdown({
      key: key(i),
      title: `Team policy ${i}`,
      section: "Team",
      locale: i % 5 === 0 ? "de" : "en",
      paragraphs: [paragraph, `Rule ${i}.`],
    }),
  }));
  // In five imports of a hundred: each import is one transaction, and a machine under load can take
  // longer than a transaction's time over all 500 at once.
  for (let i = 0; i < TEAM; i += 100) {
    const imported = await importDocuments({ files: files.slice(i, i + 100), actor: author, client });
    if (!imported.ok) throw new Error(`the import failed: ${JSON.stringify(imported.files.find((f) => f.status !== "created"))}`);
  }
}, 120_000);

/** The page, and how many statements it took. */
async function listed(input: Parameters<typeof listDocuments>[0]) {
  const counter = testDb().roundTrips;
  const before = counter.count;
  const list = await listDocuments(input);
  return { list, statements: counter.count - before };
}

describe("the documents list of a team with 500 documents", () => {
  it("pages them by key, one statement a page, with the total on every page, past the last one too", async () => {
    const total = demo + TEAM;
    const first = await listed({ page: { number: 1, size: 50 } });
    expect(first.statements).toBe(1);
    expect(first.list.total).toBe(total);
    expect(first.list.documents).toHaveLength(50);
    const keys = first.list.documents.map((d) => d.docKey);
    expect(keys).toEqual([...keys].sort());

    const lastNumber = Math.ceil(total / 50);
    const last = await listed({ page: { number: lastNumber, size: 50 } });
    expect([last.statements, last.list.total, last.list.documents.length]).toEqual([1, total, total - (lastNumber - 1) * 50]);

    const past = await listed({ page: { number: lastNumber + 3, size: 50 } });
    expect([past.statements, past.list.total, past.list.documents]).toEqual([1, total, []]);
  });

  it("filters them in the same statement: words of the key or title, the locale, the state", async () => {
    const byKey = await listed({ filter: { query: "team-01" }, page: { number: 1, size: 50 } });
    expect([byKey.statements, byKey.list.total]).toEqual([1, 10]);
    expect(byKey.list.documents.map((d) => d.docKey)).toEqual(Array.from({ length: 10 }, (_, i) => key(10 + i)));
    expect(byKey.list.documents[0]).toMatchObject({
      version: 1,
      status: "draft",
      title: "Team policy 10",
      inEffectVersion: null,
      versions: 1,
    });

    const german = await listed({ filter: { locale: "de", query: "team" }, page: { number: 2, size: 40 } });
    expect([german.statements, german.list.total, german.list.documents.length]).toEqual([1, TEAM / 5, 40]);
    expect(german.list.documents.every((d) => d.locale === "de")).toBe(true);

    const drafts = await listed({ filter: { status: "draft", query: "Team policy" }, page: { number: 3, size: 200 } });
    expect([drafts.statements, drafts.list.total, drafts.list.documents.length]).toEqual([1, TEAM, TEAM - 400]);
    expect(new Set(drafts.list.documents.map((d) => d.status))).toEqual(new Set(["draft"]));
  });

  it("shows the version in effect and the count of versions beside each key", async () => {
    const { documents } = await listDocuments({ filter: { query: "return-policy-us" } });
    expect(documents).toEqual([expect.objectContaining({ docKey: "return-policy-us", inEffectVersion: 2, versions: 2 })]);
  });
});
