// Document QA: a question in, asked in one language, either a grounded context pack with
// docKey@version citations from the documents in effect in that language, or an abstention.
// Abstaining is a normal answer: the agent then hands the ticket to a person.
import type { Db } from "../db";
import { rankPassages, searchPassages, withEnoughTerms, type TRetrievedPassage } from "./retrieve-passages";
import { isCoveredLanguage } from "./language";
import { languageOfLocale } from "./in-effect";
import type { TAbstainReason } from "../contracts/reason-codes";

export interface TContextPackLimits {
  /** Lowest normalised rank a passage may have. */
  minScore: number;
  /** Lowest coverage (the weighted share of the question a passage holds: retrieve-passages.ts) of a
   * passage that brings its document into the pack. Keeps a passage that shares one common word
   * ("refund") with an unrelated ticket out of the evidence. */
  minCoverage: number;
  /** Lowest coverage of a further passage of a document already in the pack: the rest of the answer
   * (how a refund is paid, after the window it is paid in) is often in the next paragraph, which
   * shares fewer of the question's words. Default: minCoverage. */
  minCoverageInDocument?: number;
  /** Coverage at which a document comes in before the further passages of those already in; one
   * covering only minCoverage fills the room left after them (the best document's whole answer first). */
  strongCoverage?: number;
  maxChunks: number;
  maxChars: number;
}

export const CONTEXT_PACK_LIMITS: TContextPackLimits = {
  minScore: 0,
  minCoverage: 0.25,
  minCoverageInDocument: 0.2,
  strongCoverage: 0.4,
  maxChunks: 3,
  maxChars: 1600,
};

export type TEvidenceAnswer =
  | { status: "grounded"; question: string; passages: TRetrievedPassage[]; citations: string[] }
  | { status: "abstain"; question: string; passages: []; citations: []; reason: TAbstainReason };

/** The passages that answer, in the order retrieval ranked them (retrievePassages): first the passage
 * that brings each document in – one its customer may read that covers enough of the question on its
 * own – so that the pack holds the best documents' answers before the rest of any one of them, then
 * further passages of the documents in the pack that cover enough for that, within the pack's limits. */
export function buildContextPack(
  ranked: TRetrievedPassage[],
  limits: TContextPackLimits = CONTEXT_PACK_LIMITS,
  /** Whether a passage may bring its document in (withEnoughTerms); any may follow one that did. */
  mayOpen: (passage: TRetrievedPassage) => boolean = () => true,
): TRetrievedPassage[] {
  const taken = new Set<number>();
  const opened = new Set<string>();
  let chars = 0;
  const take = (admits: (passage: TRetrievedPassage) => boolean) =>
    ranked.forEach((passage, i) => {
      if (taken.size >= limits.maxChunks || taken.has(i) || passage.score < limits.minScore) return;
      if (!admits(passage) || chars + passage.text.length > limits.maxChars) return;
      taken.add(i);
      opened.add(passage.citation);
      chars += passage.text.length;
    });
  // A document comes in for a passage its customer may read: a ticket only staff-only text answers is
  // not answered to the customer. Its staff-only passages then come with it, for the reviewer.
  const opens = (floor: number) => (p: TRetrievedPassage) =>
    !opened.has(p.citation) && p.audience === "customer" && p.coverage >= floor && mayOpen(p);
  take(opens(Math.max(limits.minCoverage, limits.strongCoverage ?? 0)));
  take((p) => opened.has(p.citation) && p.coverage >= (limits.minCoverageInDocument ?? limits.minCoverage));
  take(opens(limits.minCoverage));
  // A staff-only passage of a document in the pack is never sent to the customer, and the reviewer
  // must see it: it comes beyond maxChunks, within maxChars.
  ranked.forEach((p, i) => {
    const fits = chars + p.text.length <= limits.maxChars;
    const staffNote =
      p.audience === "staff" && opened.has(p.citation) && p.coverage >= (limits.minCoverageInDocument ?? limits.minCoverage);
    if (taken.has(i) || !fits || !staffNote) return;
    taken.add(i);
    chars += p.text.length;
  });
  return ranked.filter((_, i) => taken.has(i));
}

export interface TPolicyQuestion {
  question: string;
  /** The language the answer is for: the ticket's (ticketLanguage). */
  locale: string;
}

export async function answerPolicyQuestion(
  client: Db,
  { question, locale: asked }: TPolicyQuestion,
  limits: TContextPackLimits = CONTEXT_PACK_LIMITS,
): Promise<TEvidenceAnswer> {
  const locale = languageOfLocale(asked);
  const found = await searchPassages(client, { question, locale });
  // A document comes in only for a passage that holds enough of the question's terms; its further
  // passages (the rest of the answer, the staff-only notes for the reviewer) need only their coverage.
  const opening = new Set(withEnoughTerms(found).passages.map((p) => p.chunkId));
  const pack = buildContextPack(rankPassages(found), limits, (p) => opening.has(p.chunkId));
  if (pack.length) return { status: "grounded", question, passages: pack, citations: [...new Set(pack.map((p) => p.citation))] };
  // A passage found at all is a document in effect in this language; only when none is found does it
  // take a second statement to tell "nothing covers this" from "nothing is written in this language".
  const covered = found.passages.length > 0 || (await isCoveredLanguage(client, locale));
  return { status: "abstain", question, passages: [], citations: [], reason: covered ? "no_approved_evidence" : "unsupported_language" };
}
