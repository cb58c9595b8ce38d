import { Fragment } from "react";
import { splitCitations } from "@/lib/contracts/citations";

/** Where a citation opens: the cited document version, scrolled to the passage. */
export function citationHref(citation: string, chunkId?: string): string {
  const [docKey, version] = citation.split("@");
  return `/documents/${encodeURIComponent(docKey ?? "")}/${version ?? ""}${chunkId ? `#passage-${chunkId}` : ""}`;
}

/** A draft with each [docKey@version] turned into a link to the cited passage. */
export function CitedText({ text, passages }: { text: string; passages: Record<string, string | undefined> }) {
  return (
    <p className="whitespace-pre-wrap text-[13px] leading-relaxed text-slate-800">
      {splitCitations(text).map((part, i) => {
        if (!("citation" in part)) return <Fragment key={i}>{part.text}</Fragment>;
        const { citation } = part;
        return (
          // A plain link: a full navigation lands on the passage (:target), which a client-side one does not.
          <a key={i} href={citationHref(citation, passages[citation])} className="rounded bg-indigo-50 px-1 font-mono text-[12px] text-indigo-700 underline-offset-2 hover:underline" aria-label={`Open cited passage ${citation}`}>
            {citation}
          </a>
        );
      })}
    </p>
  );
}
