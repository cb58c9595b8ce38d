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

/** The passages that answer, in the order retrieval ranked them (retrievePassages): each covers
 * enough of the question on its own, or enough for a further passage of a document already in the
 * pack, within the pack's limits. */
export function buildContextPack(ranked: TRetrievedPassage[], limits: TContextPackLimits = CONTEXT_PACK_LIMITS): TRetrievedPassage[] {
  const pack: TRetrievedPassage[] = [];
  let chars = 0;
  for (const passage of ranked) {
    if (pack.length >= limits.maxChunks) break;
    const inPack = pack.some((p) => p.citation === passage.citation);
    // A document comes in for a passage its customer may read: a ticket only staff-only text answers is
    // not answered to the customer. Its staff-only passages then come with it, for the reviewer.
    const opens = !inPack && passage.audience === "customer" && passage.coverage >= limits.minCoverage;
    const enough = opens || (inPack && passage.coverage >= (limits.minCoverageInDocument ?? limits.minCoverage));
    if (passage.score < limits.minScore || !enough || chars + passage.text.length > limits.maxChars) continue;
    pack.push(passage);
    chars += passage.text.length;
  }
  return pack;
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
