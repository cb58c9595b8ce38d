// What changed between two versions of a document: the Markdown line by line, and the passages – the
// units retrieval finds and drafts cite – added, removed, changed (same section, new words) or moved
// between customers and staff. Pure: diff-versions.ts loads the two versions.
import { diffLines } from "diff";
import type { TAudience } from "./parse-markdown";

export interface TComparedPassage {
  heading: string;
  text: string;
  audience: TAudience;
}

export interface TLineChange {
  kind: "added" | "removed" | "same";
  text: string;
  /** Lines in this run. */
  lines: number;
}

export interface TVersionComparison {
  lines: TLineChange[];
  passages: {
    added: TComparedPassage[];
    removed: TComparedPassage[];
    /** A passage of the same section whose words changed, paired in order. */
    changed: { heading: string; before: TComparedPassage; after: TComparedPassage }[];
    /** The same words, now for another audience (staff only ↔ customers). */
    audienceChanged: { heading: string; text: string; from: TAudience; to: TAudience }[];
    unchanged: number;
  };
}

const keyOf = (p: TComparedPassage) => `${p.heading}\n${p.text}`;

function comparePassages(before: readonly TComparedPassage[], after: readonly TComparedPassage[]): TVersionComparison["passages"] {
  const pool = new Map<string, TComparedPassage[]>();
  for (const p of before) pool.set(keyOf(p), [...(pool.get(keyOf(p)) ?? []), p]);
  const result: TVersionComparison["passages"] = { added: [], removed: [], changed: [], audienceChanged: [], unchanged: 0 };
  const fresh: TComparedPassage[] = [];
  for (const p of after) {
    const same = pool.get(keyOf(p))?.shift();
    if (!same) fresh.push(p);
    else if (same.audience !== p.audience)
      result.audienceChanged.push({ heading: p.heading, text: p.text, from: same.audience, to: p.audience });
    else result.unchanged++;
  }
  const gone = [...pool.values()].flat();
  // What left a section and what came into it, in order: each pair is one passage reworded.
  for (const p of fresh) {
    const i = gone.findIndex((g) => g.heading === p.heading);
    if (i < 0) result.added.push(p);
    else result.changed.push({ heading: p.heading, before: gone.splice(i, 1)[0]!, after: p });
  }
  result.removed = before.filter((p) => gone.includes(p));
  return result;
}

export function compareVersions(
  before: { body: string; passages: readonly TComparedPassage[] },
  after: { body: string; passages: readonly TComparedPassage[] },
): TVersionComparison {
  const lines = diffLines(before.body, after.body).map((c) => ({
    kind: c.added ? ("added" as const) : c.removed ? ("removed" as const) : ("same" as const),
    text: c.value,
    lines: c.count ?? c.value.split("\n").length - 1,
  }));
  return { lines, passages: comparePassages(before.passages, after.passages) };
}
