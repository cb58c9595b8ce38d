import { Fragment } from "react";

/** Where a citation opens: the cited document version, scrolled to the passage. */
export function citationHref(citation: string, chunkId?: string): string {
  const [docKey, version] = citation.split("@");
  return `/documents/${encodeURIComponent(docKey ?? "")}/${version ?? ""}${chunkId ? `#passage-${chunkId}` : ""}`;
}

/** A draft with each [docKey@version] turned into a link to the cited passage. */
export function CitedText({ text, passages }: { text: string; passages: Record<string, string | undefined> }) {
  const parts = text.split(/(\[[a-z0-9][a-z0-9-]*@\d+\])/g);
  return (
    <p className="whitespace-pre-wrap text-[13px] leading-relaxed text-slate-800">
      {parts.map((part, i) => {
        const m = part.match(/^\[([a-z0-9-]+@\d+)\]$/);
        if (!m) return <Fragment key={i}>{part}</Fragment>;
        return (
          // A plain link: a full navigation lands on the passage (:target), which a client-side one does not.
          <a key={i} href={citationHref(m[1]!, passages[m[1]!])} className="rounded bg-indigo-50 px-1 font-mono text-[12px] text-indigo-700 underline-offset-2 hover:underline" aria-label={`Open cited passage ${m[1]}`}>
            {m[1]}
          </a>
        );
      })}
    </p>
  );
}
