import { Fragment } from "react";
import { splitCitations } from "@/lib/contracts/citations";
import { citedPassages } from "@/lib/evidence/cited-passages";

/** Where a citation opens: the cited document version, scrolled to the passage. */
export function citationHref(citation: string, chunkId?: string | null): string {
  const [docKey, version] = citation.split("@");
  return `/documents/${encodeURIComponent(docKey ?? "")}/${version ?? ""}${chunkId ? `#passage-${chunkId}` : ""}`;
}

/** A passage the run retrieved, as its evidence stores it. */
export type TCitedPassage = { citation: string; chunkId: string; text: string; heading: string };

/**
 * A draft with each [docKey@version] turned into a link to the passage that supports its sentence:
 * two sentences citing two passages of one document open two passages (citedPassages).
 */
export function CitedText({ text, passages }: { text: string; passages: readonly TCitedPassage[] }) {
  const opened = citedPassages(text, passages);
  let occurrence = 0;
  const parts = splitCitations(text).map((part) =>
    "citation" in part ? { citation: part.citation, chunkId: opened[occurrence++] ?? null } : part,
  );
  return (
    <p className="whitespace-pre-wrap text-[13px] leading-relaxed text-slate-800">
      {parts.map((part, i) => {
        if (!("citation" in part)) return <Fragment key={i}>{part.text}</Fragment>;
        const { citation, chunkId } = part;
        return (
          // A plain link: a full navigation lands on the passage (:target), which a client-side one does not.
          // Unbroken: a citation split at its hyphens reads as two.
          <a
            key={i}
            href={citationHref(citation, chunkId)}
            className="whitespace-nowrap rounded bg-indigo-50 px-1 font-mono text-[12px] text-indigo-700 underline-offset-2 hover:underline"
            aria-label={`Open cited passage ${citation}`}
          >
            {citation}
          </a>
        );
      })}
    </p>
  );
}
