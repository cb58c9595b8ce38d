// Policy documents from import to retirement, on the demo data (PGlite, and PostgreSQL with
// DATABASE_URL): all-or-nothing imports, drafts edited from the content the editor loaded, publishing
// by a second person with a role the setting allows (refusals audited), retirement and scheduling as
// retrieval sees them, and the database refusing to rewrite a version past draft.
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../../generated/prisma/enums";
import { seedDemo } from "../../prisma/seed/demo";
import { useTestDb } from "../../testing/db";
import { refusalCode } from "../../testing/refusals";
import { retrievePassages } from "../evidence/retrieve-passages";
import { updatePolicySettings } from "../policy/update-settings";
import { diffVersions } from "./diff-versions";
import { importDocuments, IMPORT_LIMITS, type TImportFile } from "./import-documents";
import { listDocuments } from "./list-documents";
import { loadDocumentVersion } from "./load-document-version";
import { publishVersion } from "./publish-version";
import { retireDocument } from "./retire-document";
import { retireSupersededVersions } from "./retire-superseded-versions";
import { saveDraft } from "./save-draft";
import { submitForReview } from "./submit-for-review";
import { withdrawFromReview } from "./withdraw-from-review";

const testDb = useTestDb(seedDemo);

type TPerson = { id: string; role: Role; name: string };
const people: Record<"author" | "reviewer" | "specialist" | "lead" | "admin" | "otherLead", TPerson> = {} as never;

beforeAll(async () => {
  const { client } = testDb();
  const make = (email: string, name: string, role: Role) =>
    client.user.create({ data: { email, name, role, passwordHash: "x" }, select: { id: true, role: true, name: true } });
  people.author = await make("ann.author@example.com", "Ann Author", "SPECIALIST");
  people.otherLead = await make("otto.lead@example.com", "Otto Lead", "LEAD");
  for (const [key, email] of [
    ["reviewer", "reviewer@example.com"],
    ["specialist", "specialist@example.com"],
    ["lead", "lead@example.com"],
    ["admin", "admin@example.com"],
  ] as const)
    people[key] = await client.user.findUniqueOrThrow({ where: { email }, select: { id: true, role: true, name: true } });
});

const actor = (p: TPerson) => ({ id: p.id, role: p.role });

function md(key: string, paragraphs: string[], front: Record<string, string> = {}): string {
  const lines = Object.entries({ key, title: `Policy ${key}`, locale: "en", owner: "Support Operations", ...front }).map(
    ([k, v]) => `${k}: ${v}`,
  );
  return ["---", ...lines, "---", "", ...paragraphs.flatMap((p) => [p, ""])].join("\n");
}

const file = (name: string, text: string): TImportFile => ({ name, text });

async function counts() {
  const { client } = testDb();
  return {
    documents: await client.policyDocument.count(),
    chunks: await client.policyChunk.count(),
    audit: await client.auditEvent.count(),
  };
}

async function importOne(key: string, paragraphs: string[], by: TPerson = people.author) {
  const result = await importDocuments({ files: [file(`${key}.md`, md(key, paragraphs))], actor: actor(by) });
  const outcome = result.files[0]!;
  if (outcome.status !== "created" && outcome.status !== "updated") throw new Error(`not imported: ${JSON.stringify(outcome)}`);
  return outcome;
}

async function inReview(key: string, paragraphs: string[]) {
  const created = await importOne(key, paragraphs);
  await submitForReview({ documentId: created.documentId, actor: actor(people.author) });
  return created;
}

const events = (action: string, docKey: string) =>
  testDb().client.auditEvent.findMany({ where: { action, subjectType: "document", subjectId: docKey }, orderBy: { at: "asc" } });

describe("importing Markdown", () => {
  it("writes nothing when any file has a problem, and names every problem with its file and line", async () => {
    const before = await counts();
    const result = await importDocuments({
      files: [
        file("good.md", md("import-good", ["A fine paragraph."])),
        file("bad/front.md", "---\nkey: import-bad\ntitle: Bad\ncolour: blue\nnot a pair\n---\nText.\n"),
        file("bad/empty.md", "---\nkey: import-empty\ntitle: Empty\n---\n"),
      ],
      actor: actor(people.author),
    });
    expect(result.ok).toBe(false);
    expect(result.files.map((f) => f.status)).toEqual(["held", "problems", "problems"]);
    const front = result.files[1]!;
    expect(front.status === "problems" && front.problems.map((p) => p.line)).toEqual([4, 5]);
    expect(front.status === "problems" && front.problems[0]!.message).toMatch(/Unknown front matter "colour"/);
    expect(result.files[2]!.status === "problems" && result.files[2]!.problems[0]!.message).toMatch(/no paragraph/);
    expect(await counts()).toEqual(before);
  });

  it("creates a draft by the importer, audited; the same files again write nothing", async () => {
    const files = [file("a.md", md("import-twice", ["First paragraph.", "- one\n- two"]))];
    const first = await importDocuments({ files, actor: actor(people.author) });
    expect(first.files[0]).toMatchObject({ status: "created", docKey: "import-twice", version: 1 });
    const row = await testDb().client.policyDocument.findUniqueOrThrow({
      where: { docKey_version: { docKey: "import-twice", version: 1 } },
      include: { chunks: { orderBy: { ordinal: "asc" } } },
    });
    expect([row.status, row.authorId, row.owner]).toEqual(["draft", people.author.id, "Support Operations"]);
    expect(row.chunks.map((c) => c.text)).toEqual(["First paragraph.", "one. two."]);
    expect(await events("document.imported", "import-twice")).toHaveLength(1);

    const before = await counts();
    const again = await importDocuments({ files, actor: actor(people.author) });
    expect(again.files[0]).toMatchObject({ status: "unchanged", version: 1 });
    expect(await counts()).toEqual(before);
  });

  it("updates the importer's own latest draft in place, and gives anyone else a new version", async () => {
    await importOne("import-edit", ["Version one."]);
    const mine = await importOne("import-edit", ["Version one, reworded."]);
    expect(mine).toMatchObject({ status: "updated", version: 1 });
    const theirs = await importOne("import-edit", ["Version two, by a lead."], people.lead);
    expect(theirs).toMatchObject({ status: "created", version: 2 });
    const v2 = await loadDocumentVersion({ docKey: "import-edit", version: 2 });
    expect(v2?.doc.author?.name).toBe("Lee Lead");
    expect(v2?.doc.chunks.map((c) => c.text)).toEqual(["Version two, by a lead."]);
  });

  it("gives two people importing the same new key at once two versions, neither refused (the key's lock)", async () => {
    const [a, b] = await Promise.all([
      importDocuments({ files: [file("race.md", md("import-race", ["By the author."]))], actor: actor(people.author) }),
      importDocuments({ files: [file("race.md", md("import-race", ["By the lead."]))], actor: actor(people.lead) }),
    ]);
    expect([a.files[0], b.files[0]].map((f) => (f!.status === "created" ? f!.version : f!.status)).sort()).toEqual([1, 2]);
  });

  it("takes the highest front-matter version of a key a folder holds twice, and refuses two it cannot tell apart", async () => {
    const kept = await importDocuments({
      files: [
        file("history/k.v1.md", md("import-history", ["Old."], { version: "1", status: "retired" })),
        file("history/k.md", md("import-history", ["New."], { version: "2", status: "published" })),
      ],
      actor: actor(people.author),
    });
    expect(kept.files.map((f) => f.status)).toEqual(["skipped", "created"]);
    // A person's import always makes a draft, whatever the front matter says.
    expect(kept.files[1]).toMatchObject({ version: 1, notes: [expect.stringMatching(/imported as a draft/)] });
    expect((await loadDocumentVersion({ docKey: "import-history", version: 1 }))?.doc.status).toBe("draft");

    const clash = await importDocuments({
      files: [file("x.md", md("import-clash", ["One."])), file("y.md", md("import-clash", ["Two."]))],
      actor: actor(people.author),
    });
    expect(clash.ok).toBe(false);
    expect(clash.files.map((f) => f.status)).toEqual(["problems", "problems"]);
  });

  it("refuses more files or bytes than one import takes, and names a file too large to be a document", async () => {
    const many = Array.from({ length: IMPORT_LIMITS.files + 1 }, (_, i) => file(`f${i}.md`, md(`many-${i}`, ["Text."])));
    expect(await refusalCode(importDocuments({ files: many, actor: actor(people.author) }))).toBe("import_too_large");
    expect(await refusalCode(importDocuments({ files: [], actor: actor(people.author) }))).toBe("invalid");
    const huge = await importDocuments({
      files: [file("huge.md", md("import-huge", ["x".repeat(IMPORT_LIMITS.fileBytes)]))],
      actor: actor(people.author),
    });
    expect(huge.files[0]!.status === "problems" && huge.files[0]!.problems[0]!.message).toMatch(/more than a document may be/);
  });
});

describe("editing a draft", () => {
  it("saves new Markdown with a new hash and passages derived again, from the hash the editor loaded only", async () => {
    const created = await importOne("edit-draft", ["Before the edit."]);
    const loaded = (await loadDocumentVersion({ docKey: "edit-draft", version: 1 }))!;
    const source = md("edit-draft", ["After the edit.", "## Escalation {audience=staff}", "Call the lead."]);
    const saved = await saveDraft({
      documentId: created.documentId,
      source,
      expectedContentHash: loaded.doc.contentHash,
      actor: actor(people.author),
    });
    expect(saved.changed).toBe(true);
    expect(saved.contentHash).not.toBe(loaded.doc.contentHash);
    const after = (await loadDocumentVersion({ docKey: "edit-draft", version: 1 }))!;
    expect(after.doc.contentHash).toBe(saved.contentHash);
    expect(after.doc.chunks.map((c) => [c.heading, c.text, c.audience])).toEqual([
      ["Policy edit-draft: Policy edit-draft", "After the edit.", "customer"],
      ["Policy edit-draft: Escalation", "Call the lead.", "staff"],
    ]);
    expect(await events("document.draft_saved", "edit-draft")).toHaveLength(1);

    // The editor still holding the first hash is refused, not merged.
    const stale = saveDraft({
      documentId: created.documentId,
      source,
      expectedContentHash: loaded.doc.contentHash,
      actor: actor(people.author),
    });
    expect(await refusalCode(stale)).toBe("stale");
    const other = saveDraft({ documentId: created.documentId, source, expectedContentHash: saved.contentHash, actor: actor(people.lead) });
    expect(await refusalCode(other)).toBe("not_the_author");
    const rekeyed = saveDraft({
      documentId: created.documentId,
      source: md("edit-draft-renamed", ["Text."]),
      expectedContentHash: saved.contentHash,
      actor: actor(people.author),
    });
    expect(await refusalCode(rekeyed)).toBe("invalid");
    const broken = saveDraft({
      documentId: created.documentId,
      source: "---\nkey: edit-draft\n---\n",
      expectedContentHash: saved.contentHash,
      actor: actor(people.author),
    });
    await expect(broken).rejects.toThrow(/Line 1: The front matter names no title/);
  });

  it("refuses to edit a version in review until it is withdrawn", async () => {
    const created = await inReview("edit-review", ["Under review."]);
    const hash = (await loadDocumentVersion({ docKey: "edit-review", version: 1 }))!.doc.contentHash;
    const edit = () =>
      saveDraft({
        documentId: created.documentId,
        source: md("edit-review", ["Changed."]),
        expectedContentHash: hash,
        actor: actor(people.author),
      });
    expect(await refusalCode(edit())).toBe("document_state");
    expect(await refusalCode(withdrawFromReview({ documentId: created.documentId, actor: actor(people.reviewer) }))).toBe(
      "role_insufficient",
    );
    await withdrawFromReview({ documentId: created.documentId, actor: actor(people.author) });
    expect(await refusalCode(edit())).toBe("accepted");
  });
});

describe("publishing", () => {
  it("refuses the author, and audits the refusal with both people", async () => {
    const created = await inReview("publish-own", ["Written and sent by the author."]);
    await testDb().client.user.update({ where: { id: people.author.id }, data: { role: "LEAD" } });
    try {
      expect(await refusalCode(publishVersion({ documentId: created.documentId, actor: { id: people.author.id, role: "LEAD" } }))).toBe(
        "author_cannot_publish",
      );
    } finally {
      await testDb().client.user.update({ where: { id: people.author.id }, data: { role: "SPECIALIST" } });
    }
    const [refused] = await events("document.publish_refused", "publish-own");
    expect(refused?.inputs).toMatchObject({
      code: "author_cannot_publish",
      version: 1,
      authorId: people.author.id,
      authorName: "Ann Author",
      publisherId: people.author.id,
      publisherName: "Ann Author",
    });
    expect((await loadDocumentVersion({ docKey: "publish-own", version: 1 }))?.doc.status).toBe("in_review");
  });

  it("refuses whoever sent the version to review, though someone else wrote it", async () => {
    const created = await importOne("publish-submitter", ["Sent by a lead."]);
    await submitForReview({ documentId: created.documentId, actor: actor(people.lead) });
    expect(await refusalCode(publishVersion({ documentId: created.documentId, actor: actor(people.lead) }))).toBe("author_cannot_publish");
    expect(await refusalCode(publishVersion({ documentId: created.documentId, actor: actor(people.otherLead) }))).toBe("accepted");
  });

  it("refuses a role below the setting (a reviewer under the default lead), audited; a specialist may once the setting says so", async () => {
    const created = await inReview("publish-role", ["Needs a lead by default."]);
    expect(await refusalCode(publishVersion({ documentId: created.documentId, actor: actor(people.reviewer) }))).toBe("role_insufficient");
    expect(await refusalCode(publishVersion({ documentId: created.documentId, actor: actor(people.specialist) }))).toBe(
      "role_insufficient",
    );
    const refusals = await events("document.publish_refused", "publish-role");
    expect(refusals.map((e) => [(e.inputs as { code: string }).code, e.actorId])).toEqual([
      ["role_insufficient", people.reviewer.id],
      ["role_insufficient", people.specialist.id],
    ]);

    await updatePolicySettings({ changes: { "documents.publishRole": "SPECIALIST" }, actor: actor(people.admin) });
    try {
      expect(await refusalCode(publishVersion({ documentId: created.documentId, actor: actor(people.reviewer) }))).toBe(
        "role_insufficient",
      );
      expect(await refusalCode(publishVersion({ documentId: created.documentId, actor: actor(people.specialist) }))).toBe("accepted");
    } finally {
      await updatePolicySettings({ changes: { "documents.publishRole": "LEAD" }, actor: actor(people.admin) });
    }
  });

  it("is audited with the author and the publisher by id and name, the version's hash, and retires the version before it", async () => {
    const v1 = await inReview("publish-audit", ["The first rule."]);
    await publishVersion({ documentId: v1.documentId, actor: actor(people.lead) });
    const v2 = await importOne("publish-audit", ["The second rule."]);
    expect(v2.version).toBe(2);
    await submitForReview({ documentId: v2.documentId, actor: actor(people.author) });
    const published = await publishVersion({ documentId: v2.documentId, actor: actor(people.otherLead) });
    expect(published).toMatchObject({ version: 2, effectiveAt: null, retiredVersions: [1] });

    const loaded = (await loadDocumentVersion({ docKey: "publish-audit", version: 2 }))!;
    const event = (await events("document.published", "publish-audit")).at(-1)!;
    expect(event.actorId).toBe(people.otherLead.id);
    expect(event.inputs).toEqual({
      docKey: "publish-audit",
      version: 2,
      contentHash: loaded.doc.contentHash,
      effectiveAt: null,
      authorId: people.author.id,
      authorName: "Ann Author",
      submittedById: people.author.id,
      publisherId: people.otherLead.id,
      publisherName: "Otto Lead",
      retiredVersions: [1],
    });
    const v1Row = (await loadDocumentVersion({ docKey: "publish-audit", version: 1 }))!.doc;
    expect([v1Row.status, v1Row.retiredBy?.name]).toEqual(["retired", "Otto Lead"]);
    expect(loaded.isInEffect).toBe(true);
    // Only a version in review is published; publishing it twice is refused, and audited as refused.
    expect(await refusalCode(publishVersion({ documentId: v2.documentId, actor: actor(people.lead) }))).toBe("document_state");
  });

  it("refuses an older version once a later one is published", async () => {
    const v1 = await importOne("publish-order", ["One."]);
    const v2 = await importOne("publish-order", ["Two."], people.lead);
    await submitForReview({ documentId: v1.documentId, actor: actor(people.author) });
    await submitForReview({ documentId: v2.documentId, actor: actor(people.lead) });
    await publishVersion({ documentId: v2.documentId, actor: actor(people.otherLead) });
    expect(await refusalCode(publishVersion({ documentId: v1.documentId, actor: actor(people.otherLead) }))).toBe("document_state");
  });
});

/** The version of a key the database's rule puts in effect now. */
async function inEffect(docKey: string): Promise<number | null> {
  const rows = await testDb().client.$queryRaw<{ version: number }[]>`
    SELECT d."version" FROM countersign_policy_in_effect() e JOIN "PolicyDocument" d ON d."id" = e."id" WHERE d."docKey" = ${docKey}`;
  return rows[0]?.version ?? null;
}

describe("what retrieval may use", () => {
  it("never finds a retired document again", async () => {
    const { client } = testDb();
    const question = "how many business days until a refund reaches the original payment method";
    expect((await retrievePassages(client, { question, locale: "en" })).map((p) => p.citation)).toContain("support-sla@1");
    expect(await refusalCode(retireDocument({ docKey: "support-sla", actor: actor(people.specialist) }))).toBe("role_insufficient");
    expect(await retireDocument({ docKey: "support-sla", actor: actor(people.lead) })).toEqual({
      docKey: "support-sla",
      retiredVersions: [1],
    });
    expect((await retrievePassages(client, { question, locale: "en" })).map((p) => p.docKey)).not.toContain("support-sla");
    expect(await inEffect("support-sla")).toBeNull();
    expect(await events("document.retired", "support-sla")).toHaveLength(1);
    expect(await refusalCode(retireDocument({ docKey: "support-sla", actor: actor(people.lead) }))).toBe("document_state");
  });

  it("keeps the previous version in effect until a scheduled one's time, then the scheduled one", async () => {
    const v1 = await inReview("scheduled", ["Returns within 30 days."]);
    await publishVersion({ documentId: v1.documentId, actor: actor(people.lead) });
    const v2 = await inReview("scheduled", ["Returns within 45 days."]);
    const at = new Date(Date.now() + 3600_000);
    const published = await publishVersion({ documentId: v2.documentId, actor: actor(people.lead), effectiveAt: at });
    expect(published).toMatchObject({ version: 2, retiredVersions: [] });
    expect(await inEffect("scheduled")).toBe(1);
    expect((await listDocuments({ filter: { query: "scheduled" } })).documents[0]).toMatchObject({
      version: 2,
      status: "published",
      inEffectVersion: 1,
    });

    // Its time comes (moved by hand: a state column, which the guard lets move).
    await testDb().client
      .$executeRaw`UPDATE "PolicyDocument" SET "effectiveAt" = ${new Date(Date.now() - 1000)} WHERE "id" = ${v2.documentId}::uuid`;
    expect(await inEffect("scheduled")).toBe(2);
    // The superseded version leaves the evidence at once (the rule above); its state is tidied afterwards.
    expect((await loadDocumentVersion({ docKey: "scheduled", version: 1 }))!.doc.status).toBe("published");
    expect(await retireSupersededVersions()).toEqual([{ docKey: "scheduled", version: 1 }]);
    const v1Row = (await loadDocumentVersion({ docKey: "scheduled", version: 1 }))!.doc;
    expect([v1Row.status, v1Row.retiredBy?.name]).toEqual(["retired", "Lee Lead"]);
    const [event] = await events("document.retired", "scheduled");
    expect([event?.actorType, event?.inputs]).toEqual(["system", { docKey: "scheduled", versions: [1], why: "superseded" }]);
    expect(await retireSupersededVersions()).toEqual([]);
    expect(await inEffect("scheduled")).toBe(2);
  });

  it("refuses a schedule in the past or too far ahead", async () => {
    const created = await inReview("schedule-bad", ["Text."]);
    for (const effectiveAt of [new Date(Date.now() - 60_000), new Date(Date.now() + 400 * 24 * 3600_000)])
      expect(await refusalCode(publishVersion({ documentId: created.documentId, actor: actor(people.lead), effectiveAt }))).toBe("invalid");
  });
});

describe("the database keeps versions past draft as they were", () => {
  const refused = (sql: Promise<unknown>) =>
    sql.then(
      () => "accepted",
      (e: Error) => (/policy_document_(immutable|transition|hash)/.test(String(e.message ?? e)) ? "refused" : `error: ${e}`),
    );

  it("refuses, even by raw SQL, a change to a published version's body or passages, its deletion, or a state moving back", async () => {
    const { client } = testDb();
    const row = await client.policyDocument.findUniqueOrThrow({ where: { docKey_version: { docKey: "return-policy-us", version: 2 } } });
    const id = row.id;
    expect(await refused(client.$executeRaw`UPDATE "PolicyDocument" SET "body" = 'Refunds within 90 days.' WHERE "id" = ${id}::uuid`)).toBe(
      "refused",
    );
    expect(await refused(client.$executeRaw`UPDATE "PolicyDocument" SET "title" = 'Other' WHERE "id" = ${id}::uuid`)).toBe("refused");
    expect(await refused(client.$executeRaw`UPDATE "PolicyChunk" SET "text" = 'Anything goes.' WHERE "documentId" = ${id}::uuid`)).toBe(
      "refused",
    );
    expect(await refused(client.$executeRaw`DELETE FROM "PolicyChunk" WHERE "documentId" = ${id}::uuid`)).toBe("refused");
    expect(
      await refused(
        client.$executeRaw`INSERT INTO "PolicyChunk" ("id", "documentId", "ordinal", "heading", "text") VALUES (gen_random_uuid(), ${id}::uuid, 99, 'h', 'Injected.')`,
      ),
    ).toBe("refused");
    expect(await refused(client.$executeRaw`DELETE FROM "PolicyDocument" WHERE "id" = ${id}::uuid`)).toBe("refused");
    expect(await refused(client.$executeRaw`UPDATE "PolicyDocument" SET "status" = 'draft' WHERE "id" = ${id}::uuid`)).toBe("refused");
    const retired = await client.policyDocument.findUniqueOrThrow({
      where: { docKey_version: { docKey: "return-policy-us", version: 1 } },
    });
    expect(await refused(client.$executeRaw`UPDATE "PolicyDocument" SET "status" = 'published' WHERE "id" = ${retired.id}::uuid`)).toBe(
      "refused",
    );
    // A draft's content may change, but never to a hash that is not its body's.
    const draft = await importOne("raw-draft", ["Draft text."]);
    expect(await refused(client.$executeRaw`UPDATE "PolicyDocument" SET "body" = 'New body.' WHERE "id" = ${draft.documentId}::uuid`)).toBe(
      "refused",
    );
    expect(
      await refused(
        client.$executeRaw`UPDATE "PolicyDocument" SET "body" = 'New body.', "contentHash" = encode(sha256(convert_to('New body.', 'UTF8')), 'hex') WHERE "id" = ${draft.documentId}::uuid`,
      ),
    ).toBe("accepted");
    const after = await client.policyDocument.findUniqueOrThrow({ where: { id }, include: { chunks: true } });
    expect([after.body, after.status, after.chunks.length]).toEqual([row.body, "published", 4]);
  });
});

describe("reading documents", () => {
  it("compares two versions line by line and passage by passage", async () => {
    const v1 = await importOne("diffed", ["Returns within 30 days.", "Keep the receipt.", "## Staff {audience=staff}", "Offer a repair."]);
    await submitForReview({ documentId: v1.documentId, actor: actor(people.author) });
    await publishVersion({ documentId: v1.documentId, actor: actor(people.lead) });
    await importOne("diffed", ["Returns within 45 days.", "Keep the receipt.", "## Staff", "Offer a repair.", "Gift cards are final."]);
    const diff = (await diffVersions({ docKey: "diffed", from: 1, to: 2 }))!;
    expect(diff.lines.filter((l) => l.kind === "removed").map((l) => l.text)).toContain("Returns within 30 days.\n");
    expect(diff.passages.changed).toEqual([
      expect.objectContaining({
        before: expect.objectContaining({ text: "Returns within 30 days." }),
        after: expect.objectContaining({ text: "Returns within 45 days." }),
      }),
    ]);
    expect(diff.passages.audienceChanged).toEqual([
      { heading: "Policy diffed: Staff", text: "Offer a repair.", from: "staff", to: "customer" },
    ]);
    expect(diff.passages.added.map((p) => p.text)).toEqual(["Gift cards are final."]);
    expect(diff.passages.unchanged).toBe(1);
    expect(await diffVersions({ docKey: "diffed", from: 1, to: 9 })).toBeNull();
  });

  it("lists one row per key with its latest version, paged and filtered", async () => {
    const all = await listDocuments({ page: { size: 500 } });
    expect(all.documents.map((d) => d.docKey)).toEqual([...all.documents.map((d) => d.docKey)].sort());
    expect(new Set(all.documents.map((d) => d.docKey)).size).toBe(all.total);
    const ret = all.documents.find((d) => d.docKey === "return-policy-us")!;
    expect(ret).toMatchObject({ version: 2, status: "published", inEffectVersion: 2, versions: 2, locale: "en", authorName: null });
    const edit = all.documents.find((d) => d.docKey === "import-edit")!;
    expect(edit).toMatchObject({ version: 2, status: "draft", authorName: "Lee Lead", inEffectVersion: null });

    const first = await listDocuments({ page: { number: 1, size: 3 } });
    const second = await listDocuments({ page: { number: 2, size: 3 } });
    expect(first.total).toBe(all.total);
    expect([...first.documents, ...second.documents].map((d) => d.docKey)).toEqual(all.documents.slice(0, 6).map((d) => d.docKey));
    expect(
      (await listDocuments({ filter: { status: "draft", query: "IMPORT-" } })).documents.every(
        (d) => d.status === "draft" && d.docKey.startsWith("import-"),
      ),
    ).toBe(true);
    expect((await listDocuments({ filter: { query: "100%_" } })).documents).toEqual([]);
  });
});
