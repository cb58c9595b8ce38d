// The page and the domain agree: for each (version, person, setting) case, a move the page offers as
// allowed is one its action then makes – the action's area passed and the documents function accepting
// it – and a move it shows disabled is refused, by the area or by the function. Publish, which the
// documents part judges for the page (findPublishRefusal), says the server's own sentence: for the
// author, a role below the setting, no evaluation of the content, regressions nobody acknowledged.
import { describe, expect, it } from "vitest";
import { useTestDb } from "@/testing/db";
import { cleanResults, finishedEvaluation, regressingResults } from "@/testing/evaluations";
import { newUser } from "@/testing/runs";
import { refusalCode } from "@/testing/refusals";
import { seedDemo } from "@/prisma/seed/demo";
import { mayUse, type Area, type Role } from "@/lib/contracts/roles";
import type { TEvaluationResults } from "@/lib/contracts/policy-evaluation";
import { acknowledgeRegression } from "@/lib/documents/evaluate-acknowledge";
import { importDocuments } from "@/lib/documents/import-documents";
import { loadDocumentVersion } from "@/lib/documents/load-document-version";
import { publishVersion } from "@/lib/documents/publish-version";
import { retireDocument } from "@/lib/documents/retire-document";
import { saveDraft } from "@/lib/documents/save-draft";
import { submitForReview } from "@/lib/documents/submit-for-review";
import { withdrawFromReview } from "@/lib/documents/withdraw-from-review";
import { updatePolicySettings } from "@/lib/policy/update-settings";
import { loadVersionMoves } from "./load-version-moves";
import type { TMove } from "./version-moves";

const testDb = useTestDb(seedDemo);

type TPerson = { id: string; role: Role };
type TStage = "draft" | "in_review" | "published";

/** The area each move's action checks (actions.ts): writing for authors, the rest for the domain to decide. */
const ACTION_AREA = {
  edit: "writeDocuments",
  newVersion: "writeDocuments",
  submit: "writeDocuments",
  withdraw: "documents",
  publish: "documents",
  retire: "documents",
} as const satisfies Record<TMove, Area>;

let documents = 0;
const source = (docKey: string, words: string) => `---\nkey: ${docKey}\ntitle: Moves ${docKey}\n---\n## Rule\n\n${words}\n`;

/** A document of its own at `stage`, written and sent by `author`, published by a lead of its own;
 * past draft, evaluated with `results` (nothing found unless told), or not at all when null. */
async function versionAt(stage: TStage, author: TPerson, results: TEvaluationResults | null = cleanResults()) {
  const docKey = `moves-${++documents}`;
  const imported = await importDocuments({
    files: [{ name: `${docKey}.md`, text: source(docKey, "Gift cards never expire.") }],
    actor: author,
  });
  const outcome = imported.files[0]!;
  if (!("documentId" in outcome)) throw new Error(`import refused: ${JSON.stringify(outcome)}`);
  if (stage !== "draft") await submitForReview({ documentId: outcome.documentId, actor: author });
  // Evaluated, with nothing found: the moves here are the page's; the evaluation's gate has its own tests.
  if (stage !== "draft" && results) await finishedEvaluation(testDb().client, outcome.documentId, author.id, results);
  if (stage === "published") await publishVersion({ documentId: outcome.documentId, actor: await newUser(testDb().client, "LEAD") });
  return { docKey, documentId: outcome.documentId };
}

/** Makes the move the way its action does: the area first, then the documents function. */
async function makeMove(move: TMove, version: { docKey: string; documentId: string }, viewer: TPerson): Promise<"accepted" | string> {
  if (!mayUse(viewer.role, ACTION_AREA[move])) return "forbidden";
  const { documentId, docKey } = version;
  switch (move) {
    case "edit": {
      const loaded = (await loadDocumentVersion({ docKey, version: 1 }))!;
      return refusalCode(
        saveDraft({
          documentId,
          source: source(docKey, "Gift cards expire after five years."),
          expectedContentHash: loaded.doc.contentHash,
          actor: viewer,
        }),
      );
    }
    case "newVersion": {
      const done = await importDocuments({
        files: [{ name: `${docKey}.md`, text: source(docKey, "Gift cards expire after ten years.") }],
        actor: viewer,
      });
      return done.ok && done.files[0]!.status === "created" ? "accepted" : JSON.stringify(done.files[0]);
    }
    case "submit":
      return refusalCode(submitForReview({ documentId, actor: viewer }));
    case "withdraw":
      return refusalCode(withdrawFromReview({ documentId, actor: viewer }));
    case "publish":
      return refusalCode(publishVersion({ documentId, actor: viewer }));
    case "retire":
      return refusalCode(retireDocument({ docKey, actor: viewer }));
  }
}

interface TCase {
  name: string;
  stage: TStage;
  publishRole: Role;
  /** Who looks at the page: the author, whoever sent it, or another person of a role. */
  viewer: "author" | Role;
  authorRole?: Role;
}

/** The moves the version's page offers `viewer`, read the way the page reads them. */
async function movesOf(version: { docKey: string }, viewer: TPerson, publishRole: Role) {
  const page = (await loadDocumentVersion({ docKey: version.docKey, version: 1 }))!;
  return loadVersionMoves(page, page.doc, viewer, publishRole);
}

/** The code and sentence a documents function refused with, or null when it did not. */
const refusalOf = (done: Promise<unknown>) =>
  done.then(
    () => null,
    (e: { code: string; message: string }) => ({ code: e.code, message: e.message }),
  );

const CASES: TCase[] = [
  { name: "the author of a draft", stage: "draft", publishRole: "LEAD", viewer: "author" },
  { name: "another specialist at someone's draft", stage: "draft", publishRole: "LEAD", viewer: "SPECIALIST" },
  { name: "a reviewer at a draft", stage: "draft", publishRole: "LEAD", viewer: "REVIEWER" },
  { name: "the author of a version in review (author and sender)", stage: "in_review", publishRole: "LEAD", viewer: "author" },
  { name: "a lead at a specialist's version in review", stage: "in_review", publishRole: "LEAD", viewer: "LEAD" },
  {
    name: "another specialist at a version in review, publishing left to leads",
    stage: "in_review",
    publishRole: "LEAD",
    viewer: "SPECIALIST",
  },
  {
    name: "another specialist at a version in review, the setting letting specialists publish",
    stage: "in_review",
    publishRole: "SPECIALIST",
    viewer: "SPECIALIST",
  },
  { name: "a lead at a version in review, the setting keeping it to admins", stage: "in_review", publishRole: "ADMIN", viewer: "LEAD" },
  {
    name: "a reviewer at a version in review, the setting letting reviewers publish",
    stage: "in_review",
    publishRole: "REVIEWER",
    viewer: "REVIEWER",
  },
  { name: "a lead who wrote the version in review", stage: "in_review", publishRole: "LEAD", viewer: "author", authorRole: "LEAD" },
  { name: "a specialist at a published version", stage: "published", publishRole: "LEAD", viewer: "SPECIALIST" },
  { name: "an admin at a published version", stage: "published", publishRole: "LEAD", viewer: "ADMIN" },
  { name: "a reviewer at a published version", stage: "published", publishRole: "LEAD", viewer: "REVIEWER" },
];

describe("the moves a version's page offers", () => {
  it.each(CASES)("are the moves the actions make, for $name", async (c) => {
    const { client } = testDb();
    const admin = await newUser(client, "ADMIN");
    await updatePolicySettings({ changes: { "documents.publishRole": c.publishRole }, actor: admin });
    const author = await newUser(client, c.authorRole ?? "SPECIALIST");
    const viewer = c.viewer === "author" ? author : await newUser(client, c.viewer);

    // Offered by the page: the moves and their answers, read the way the page reads them.
    const probe = await versionAt(c.stage, author);
    const moves = await movesOf(probe, viewer, c.publishRole);
    expect(Object.keys(moves).length, "a state offers at least one move").toBeGreaterThan(0);

    // Each move made on a version of its own in the same state (a move changes its version).
    for (const [move, answer] of Object.entries(moves) as [TMove, { allowed: boolean; why?: string }][]) {
      const outcome = await makeMove(move, await versionAt(c.stage, author), viewer);
      expect(
        { move, accepted: outcome === "accepted" },
        `${move}: the page says ${answer.why ?? "allowed"}; the action answered ${outcome}`,
      ).toEqual({
        move,
        accepted: answer.allowed,
      });
    }
  });

  it("says why Publish is refused in the server's own words, whoever or whatever refuses it", async () => {
    const { client } = testDb();
    const admin = await newUser(client, "ADMIN");
    await updatePolicySettings({ changes: { "documents.publishRole": "LEAD" }, actor: admin });
    const author = await newUser(client, "SPECIALIST");
    const [other, lead] = [await newUser(client, "SPECIALIST"), await newUser(client, "LEAD")];
    const evaluated = await versionAt("in_review", author);
    const unevaluated = await versionAt("in_review", author, null);
    const regressing = await versionAt("in_review", author, regressingResults());
    for (const [version, viewer, code] of [
      [evaluated, author, "author_cannot_publish"],
      [evaluated, other, "role_insufficient"],
      [unevaluated, lead, "evaluation_required"],
      [regressing, lead, "regression_unacknowledged"],
    ] as const) {
      const shown = (await movesOf(version, viewer, "LEAD")).publish;
      const refused = await refusalOf(publishVersion({ documentId: version.documentId, actor: viewer }));
      expect({ code: refused?.code, shown }, `${version.docKey} for a ${viewer.role}`).toEqual({
        code,
        shown: { allowed: false, why: refused?.message },
      });
    }
    expect((await movesOf(evaluated, author, "LEAD")).publish).toEqual({
      allowed: false,
      why: `You wrote ${evaluated.docKey}@1, so you cannot publish it: a second person must.`,
    });

    // Acknowledged by name, the regressions hold nothing back: the button is enabled and the publish goes through.
    const evaluation = await client.policyEvaluation.findFirstOrThrow({ where: { documentId: regressing.documentId } });
    await acknowledgeRegression({ evaluationId: evaluation.id, actor: lead, note: "Known and accepted." });
    expect((await movesOf(regressing, lead, "LEAD")).publish).toEqual({ allowed: true });
    expect(await refusalCode(publishVersion({ documentId: regressing.documentId, actor: lead }))).toBe("accepted");
  });
});
