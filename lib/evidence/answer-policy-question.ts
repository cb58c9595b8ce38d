// Document QA: a question in, asked in one language, either a grounded context pack with
// docKey@version citations from the documents in effect in that language, or an abstention.
// Abstaining is a normal answer: the agent then hands the ticket to a person.
import type { Db } from "../db";
import { retrievePassages, type TRetrievedPassage } from "./retrieve-passages";
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
  maxChunks: number;
  maxChars: number;
}

export const CONTEXT_PACK_LIMITS: TContextPackLimits = {
  minScore: 0,
  minCoverage: 0.4,
  minCoverageInDocument: 0.2,
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
export function buildContextPack(ranked: TRetrievedPassage[], limits: TContextPackLimits = CONTEXT_PACK_LIMITS): TRetrievedPassage[] {
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
  take((p) => !opened.has(p.citation) && p.audience === "customer" && p.coverage >= limits.minCoverage);
  take((p) => opened.has(p.citation) && p.coverage >= (limits.minCoverageInDocument ?? limits.minCoverage));
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
  const candidates = await retrievePassages(client, { question, locale });
  const pack = buildContextPack(candidates, limits);
  if (pack.length) return { status: "grounded", question, passages: pack, citations: [...new Set(pack.map((p) => p.citation))] };
  // A passage found at all is a document in effect in this language; only when none is found does it
  // take a second statement to tell "nothing covers this" from "nothing is written in this language".
  const covered = candidates.length > 0 || (await isCoveredLanguage(client, locale));
  return { status: "abstain", question, passages: [], citations: [], reason: covered ? "no_approved_evidence" : "unsupported_language" };
}
