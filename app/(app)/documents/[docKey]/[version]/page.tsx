import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { DocumentStatus } from "@/generated/prisma/enums";
import { requireRole } from "@/lib/auth/session";
import { loadDocumentVersion } from "@/lib/documents/load-document-version";

export const metadata: Metadata = { title: "Policy document" };

const STATUS_TONE: Readonly<Record<string, string>> = {
  published: "bg-emerald-50 text-emerald-800",
  in_review: "bg-sky-50 text-sky-800",
  retired: "bg-slate-100 text-slate-700",
  draft: "bg-amber-50 text-amber-800",
} satisfies Record<DocumentStatus, string>;

/** The page a citation opens: one version of a policy document, its passages addressable by anchor. */
export default async function DocumentPage({ params }: { params: Promise<{ docKey: string; version: string }> }) {
  await requireRole("tickets");
  const { docKey, version } = await params;
  if (!/^\d{1,9}$/.test(version)) notFound();
  const found = await loadDocumentVersion({ docKey: decodeURIComponent(docKey), version: Number(version) });
  if (!found) notFound();
  const { doc, versions } = found;
  return (
    <article className="max-w-3xl space-y-4">
      <header>
        <p className="font-mono text-[12px] text-slate-500">
          {doc.docKey}@{doc.version}
        </p>
        <h1 className="text-lg font-semibold tracking-tight text-slate-900">{doc.title}</h1>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-[13px] text-slate-600">
          <span className={`rounded px-1.5 py-0.5 text-[11px] font-medium ${STATUS_TONE[doc.status] ?? ""}`}>{doc.status}</span>
          <span>{doc.section}</span>
          <span className="text-slate-400">·</span>
          <span>{doc.source}</span>
        </p>
        {doc.status !== "published" ? (
          <p className="mt-2 rounded-md bg-amber-50 p-2 text-[13px] text-amber-900">
            This version is not published: the agent never uses it as evidence.
          </p>
        ) : null}
      </header>
      <ol className="space-y-2">
        {doc.chunks.map((c) => (
          <li
            key={c.id}
            id={`passage-${c.id}`}
            className="scroll-mt-16 rounded-md border border-slate-200 bg-white p-3 text-[13px] leading-relaxed text-slate-800 target:border-indigo-400 target:bg-indigo-50 target:ring-2 target:ring-indigo-200"
          >
            <span className="mr-2 font-mono text-[11px] text-slate-400">§{c.ordinal + 1}</span>
            {c.text}
          </li>
        ))}
      </ol>
      <nav aria-label="Versions" className="text-[13px] text-slate-600">
        Versions:{" "}
        {versions.map((v, i) => (
          <span key={v.version}>
            {i ? ", " : ""}
            {v.version === doc.version ? (
              <strong>
                v{v.version} ({v.status})
              </strong>
            ) : (
              <Link
                className="text-indigo-700 underline hover:no-underline"
                href={`/documents/${encodeURIComponent(doc.docKey)}/${v.version}`}
              >
                v{v.version} ({v.status})
              </Link>
            )}
          </span>
        ))}
      </nav>
    </article>
  );
}
