// Document QA: a question in, either a grounded context pack with docKey@version citations, or an
// abstention. Abstaining is a normal answer: the agent then hands the ticket to a person.
import type { Db } from "../db";
import { retrievePassages, type TRetrievedPassage } from "./retrieve-passages";
import { detectLanguage, isCoveredLanguage } from "./language";
import type { TAbstainReason } from "../contracts/reason-codes";

export interface TContextPackLimits {
  /** Lowest normalised rank a passage may have. */
  minScore: number;
  /** Lowest share of the question's terms a passage must contain. Keeps a passage that shares one
   * common word ("refund") with an unrelated ticket out of the evidence. */
  minCoverage: number;
  maxChunks: number;
  maxChars: number;
}

export const CONTEXT_PACK_LIMITS: TContextPackLimits = { minScore: 0.1, minCoverage: 0.5, maxChunks: 3, maxChars: 1600 };

export type TEvidenceAnswer =
  | { status: "grounded"; question: string; passages: TRetrievedPassage[]; citations: string[] }
  | { status: "abstain"; question: string; passages: []; citations: []; reason: TAbstainReason };

export function buildContextPack(candidates: TRetrievedPassage[], limits: TContextPackLimits = CONTEXT_PACK_LIMITS): TRetrievedPassage[] {
  const eligible = candidates
    .filter((p) => p.score >= limits.minScore && p.coverage >= limits.minCoverage)
    .sort((a, b) => b.coverage - a.coverage || b.score - a.score || a.citation.localeCompare(b.citation));
  const pack: TRetrievedPassage[] = [];
  let chars = 0;
  for (const passage of eligible) {
    if (pack.length >= limits.maxChunks || chars + passage.text.length > limits.maxChars) break;
    pack.push(passage);
    chars += passage.text.length;
  }
  return pack;
}

export async function answerPolicyQuestion(
  client: Db,
  question: string,
  limits: TContextPackLimits = CONTEXT_PACK_LIMITS,
): Promise<TEvidenceAnswer> {
  if (!isCoveredLanguage(detectLanguage(question)))
    return { status: "abstain", question, passages: [], citations: [], reason: "unsupported_language" };
  const pack = buildContextPack(await retrievePassages(client, question), limits);
  if (!pack.length) return { status: "abstain", question, passages: [], citations: [], reason: "no_approved_evidence" };
  return { status: "grounded", question, passages: pack, citations: [...new Set(pack.map((p) => p.citation))] };
}
