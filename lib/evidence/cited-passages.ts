// Which passage each citation in a draft opens. A citation names a document version
// (`return-policy-us@2`), not a passage, and one draft often cites two passages of one document in two
// sentences (the refund window, then where the money goes): a link per document would open the same
// passage for both. Each occurrence opens the passage that supports its own sentence, by the draft
// check's own measure (passageSupport in check-draft.ts, the words of rules 3a–d); a sentence none of
// that document's passages supports opens the document's best retrieved one (packs are best first).
import { splitCitations } from "../contracts/citations";
import { passageSupport, sentencesOf } from "./check-draft";

export interface TCitablePassage {
  citation: string;
  chunkId: string;
  text: string;
}

/**
 * For each citation occurrence in the draft, in the order splitCitations gives them: the chunkId of
 * the passage it opens, or null when no passage of that document was retrieved.
 */
export function citedPassages(draft: string, passages: readonly TCitablePassage[]): (string | null)[] {
  const opened: (string | null)[] = [];
  for (const sentence of sentencesOf(draft)) {
    for (const part of splitCitations(sentence)) {
      if ("citation" in part)
        opened.push(
          supportingPassage(
            sentence,
            passages.filter((p) => p.citation === part.citation),
          ),
        );
    }
  }
  return opened;
}

/** The candidate whose words support the sentence most; ties and no support go to the best retrieved. */
function supportingPassage(sentence: string, candidates: readonly TCitablePassage[]): string | null {
  let best: TCitablePassage | undefined;
  let bestShare = -1;
  for (const candidate of candidates) {
    const support = passageSupport(sentence, candidate.text);
    if (support.wordsOk && support.share > bestShare) {
      best = candidate;
      bestShare = support.share;
    }
  }
  return (best ?? candidates[0])?.chunkId ?? null;
}
