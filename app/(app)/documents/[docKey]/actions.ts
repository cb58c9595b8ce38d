"use server";
// A document's actions: check and save a draft, write a new version, send a draft to review or take
// it back, publish, retire. Writing is for authors (writeDocuments); who may publish, withdraw
// someone else's version or retire is a policy setting the documents part checks itself, so those
// actions are open to every role that reads documents and the domain answers the rest.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authedAction } from "@/lib/auth/authed";
import { plainText } from "@/lib/contracts/text";
import { importDocuments, IMPORT_LIMITS } from "@/lib/documents/import-documents";
import { parsePolicyMarkdown, type TParseProblem, type TParsedPassage } from "@/lib/documents/parse-markdown";
import { publishVersion } from "@/lib/documents/publish-version";
import { retireDocument } from "@/lib/documents/retire-document";
import { saveDraft } from "@/lib/documents/save-draft";
import { submitForReview } from "@/lib/documents/submit-for-review";
import { withdrawFromReview } from "@/lib/documents/withdraw-from-review";
import { ZPublishInput } from "./publish-input";

/** What the parser makes of a draft's text: its problems by line, or its passages. */
export interface TDraftCheck {
  problems: TParseProblem[];
  passages: TParsedPassage[];
}

const ZSource = plainText(z.string().max(IMPORT_LIMITS.fileBytes, `A document may be at most ${IMPORT_LIMITS.fileBytes / 1024} KiB.`), {
  label: "The Markdown",
  multiline: true,
});
const ZDocumentId = z.object({ documentId: z.uuid() });
const ZDocKey = z.string().regex(/^[a-z0-9][a-z0-9-]{0,79}$/);

function draftCheck(source: string): TDraftCheck {
  const parsed = parsePolicyMarkdown(source);
  return parsed.ok ? { problems: [], passages: parsed.document.passages } : { problems: parsed.problems, passages: [] };
}

const refresh = () => revalidatePath("/documents", "layout");

/** The parser's verdict on a text, nothing saved: what the editor's Check shows. */
export const checkDraftAction = authedAction({ area: "writeDocuments", input: z.object({ source: ZSource }) }, async ({ input }) => ({
  check: draftCheck(input.source),
}));

export const saveDraftAction = authedAction(
  { area: "writeDocuments", input: ZDocumentId.extend({ source: ZSource, expectedContentHash: z.string().regex(/^[0-9a-f]{64}$/) }) },
  async ({ input, user }) => {
    const saved = await saveDraft({ ...input, actor: user });
    refresh();
    return { ...saved, check: draftCheck(input.source) };
  },
);

/**
 * A new version written in the browser from an earlier one: imported as a file of that document
 * would be, so it follows the import's rules (a draft of the next version, or "unchanged" when the
 * text is the latest version's).
 */
export const writeVersionAction = authedAction(
  { area: "writeDocuments", input: z.object({ docKey: ZDocKey, source: ZSource }) },
  async ({ input, user }) => {
    const result = await importDocuments({ files: [{ name: `${input.docKey}.md`, text: input.source }], actor: user });
    if (result.ok) refresh();
    return { ok: result.ok, outcome: result.files[0]! };
  },
);

export const submitForReviewAction = authedAction({ area: "writeDocuments", input: ZDocumentId }, async ({ input, user }) => {
  const moved = await submitForReview({ documentId: input.documentId, actor: user });
  refresh();
  return moved;
});

export const withdrawFromReviewAction = authedAction({ area: "documents", input: ZDocumentId }, async ({ input, user }) => {
  const moved = await withdrawFromReview({ documentId: input.documentId, actor: user });
  refresh();
  return moved;
});

export const publishVersionAction = authedAction({ area: "documents", input: ZPublishInput }, async ({ input, user }) => {
  const published = await publishVersion({
    documentId: input.documentId,
    actor: user,
    effectiveAt: input.effectiveAt ?? null,
    acknowledgeRegressions: input.acknowledgeRegressions === "yes",
  });
  refresh();
  return { ...published, effectiveAt: published.effectiveAt?.toISOString() ?? null };
});

export const retireDocumentAction = authedAction({ area: "documents", input: z.object({ docKey: ZDocKey }) }, async ({ input, user }) => {
  const retired = await retireDocument({ docKey: input.docKey, actor: user });
  refresh();
  return retired;
});
