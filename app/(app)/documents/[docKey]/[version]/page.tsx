import type { Metadata } from "next";
import Link from "next/link";
import { Card, Fact } from "@/components/card";
import { formatUtc } from "@/components/format";
import type { TDocumentVersion } from "@/lib/documents/load-document-version";
import { AudienceBadge } from "../../audience-badge";
import { EvaluationPanel } from "../../evaluation-panel";
import { DocumentStatusBadge, scheduledFor } from "../../document-status";
import { VersionActions } from "../version-actions";
import { VersionDates, VersionPeople } from "../version-history";
import { DocumentHeader } from "../document-header";
import { loadVersionMoves } from "../load-version-moves";
import { requireRole } from "@/lib/auth/session";
import { loadVersionPage } from "./load-version-page";

export const metadata: Metadata = { title: "Policy document" };

/** Whether the agent may cite this version now, and if not, why – the first thing a reader needs. */
function EvidenceNotice({ page, now }: { page: TDocumentVersion; now: Date }) {
  const { doc, inEffectVersion, isInEffect } = page;
  if (isInEffect)
    return (
      <p className="mt-2 rounded-md bg-emerald-50 p-2 text-[13px] text-emerald-900">
        In effect: this is the version of {doc.docKey} the agent cites.
      </p>
    );
  const text =
    doc.status === "retired"
      ? "This version is retired: the agent never cites it again."
      : doc.status === "published" && doc.effectiveAt && doc.effectiveAt > now
        ? `Scheduled: this version takes effect at ${formatUtc(doc.effectiveAt, "minute")}${inEffectVersion ? `; until then v${inEffectVersion} is in effect` : ""}.`
        : doc.status === "published"
          ? "This version is published but not in effect."
          : "This version is not published: the agent never uses it as evidence.";
  return <p className="mt-2 rounded-md bg-amber-50 p-2 text-[13px] text-amber-900">{text}</p>;
}

/** The passages, each addressable as #passage-<id> (what a citation opens); staff-only ones marked as such. */
/** A passage's section: its heading without the document's title, which every heading starts with. */
const sectionOf = (heading: string, title: string) => (heading.startsWith(`${title}: `) ? heading.slice(title.length + 2) : heading);

function Passages({ chunks, title }: { chunks: TDocumentVersion["doc"]["chunks"]; title: string }) {
  const staff = chunks.filter((c) => c.audience === "staff").length;
  return (
    <section aria-labelledby="passages-title" className="space-y-2">
      <h2 id="passages-title" className="text-[13px] font-semibold text-slate-900">
        {chunks.length} {chunks.length === 1 ? "passage" : "passages"}
        {staff ? (
          <span className="font-normal text-slate-600"> · {staff} for staff only: cited to reviewers, never sent to a customer</span>
        ) : null}
      </h2>
      <ol className="space-y-2">
        {chunks.map((c) => (
          <li
            key={c.id}
            id={`passage-${c.id}`}
            className={`scroll-mt-16 rounded-md border p-3 text-[13px] leading-relaxed text-slate-800 target:border-indigo-400 target:bg-indigo-50 target:ring-2 target:ring-indigo-200 ${
              c.audience === "staff" ? "border-l-4 border-amber-300 border-l-amber-500 bg-amber-50" : "border-slate-200 bg-white"
            }`}
          >
            <div className="mb-1 flex flex-wrap items-center gap-2 text-[12px] text-slate-600">
              <span className="font-mono text-[11px] text-slate-500">§{c.ordinal + 1}</span>
              <span className="font-medium text-slate-800">{sectionOf(c.heading, title)}</span>
              {c.audience === "staff" ? <AudienceBadge audience="staff" /> : null}
            </div>
            {c.text}
          </li>
        ))}
      </ol>
    </section>
  );
}

function VersionsNav({ page }: { page: TDocumentVersion }) {
  const { doc, versions } = page;
  const key = encodeURIComponent(doc.docKey);
  return (
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
            <Link className="text-indigo-700 underline hover:no-underline" href={`/documents/${key}/${v.version}`}>
              v{v.version} ({v.status})
            </Link>
          )}
        </span>
      ))}
    </nav>
  );
}

function VersionCard({ page, now, children }: { page: TDocumentVersion; now: Date; children: React.ReactNode }) {
  const { doc, versions } = page;
  const previous = versions.find((v) => v.version < doc.version);
  return (
    <Card
      id="this-version"
      title={`Version ${doc.version}`}
      actions={
        previous ? (
          <Link
            href={`/documents/${encodeURIComponent(doc.docKey)}/diff?from=${previous.version}&to=${doc.version}`}
            className="text-[13px] text-indigo-700 hover:underline"
          >
            Compare with v{previous.version}
          </Link>
        ) : null
      }
    >
      <dl className="mb-3 divide-y divide-slate-100">
        <Fact label="Locale">
          <code className="font-mono text-[12px]">{doc.locale}</code>
        </Fact>
        <Fact label="Owner">{doc.owner ?? "None named"}</Fact>
        <Fact label="Content hash">
          <code className="font-mono text-[11px] break-all" title="sha256 of the version's Markdown">
            {doc.contentHash}
          </code>
        </Fact>
      </dl>
      <div className="mb-3 grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-1">
        <VersionPeople v={doc} />
        <VersionDates v={doc} now={now} />
      </div>
      {children}
    </Card>
  );
}

/** One version of a policy document: the page a citation opens, and where the version is reviewed and published. */
export default async function DocumentVersionPage({ params }: { params: Promise<{ docKey: string; version: string }> }) {
  const user = await requireRole("documents");
  const { page, publishRole } = await loadVersionPage(params);
  const { doc } = page;
  const now = new Date();
  const moves = await loadVersionMoves(page, doc, user, publishRole);
  return (
    <div className="space-y-4">
      <DocumentHeader
        docKey={doc.docKey}
        current={`v${doc.version}`}
        title={doc.title}
        above={
          <p className="mt-1 font-mono text-[12px] text-slate-500">
            {doc.docKey}@{doc.version}
          </p>
        }
        facts={
          <>
            <DocumentStatusBadge status={doc.status} scheduledFor={scheduledFor(doc, now)} />
            <span>{doc.section}</span>
            {/* The dot goes with the source: a line that wraps never ends on it. */}
            <span className="before:mr-2 before:text-slate-400 before:content-['·']">{doc.source}</span>
          </>
        }
      >
        <EvidenceNotice page={page} now={now} />
      </DocumentHeader>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <div className="min-w-0 space-y-4 lg:col-span-2">
          {/* The evaluation of a draft or a version in review before it is published goes here, above its
              passages: its own component in this folder, given doc.id, doc.contentHash and doc.status; an
              acknowledgement it asks for can join the publish form through VersionActions' publishExtras. */}
          <EvaluationPanel documentId={doc.id} contentHash={doc.contentHash} status={doc.status} />
          <Passages chunks={doc.chunks} title={doc.title} />
          <VersionsNav page={page} />
        </div>
        <div className="min-w-0">
          <VersionCard page={page} now={now}>
            <VersionActions documentId={doc.id} docKey={doc.docKey} version={doc.version} moves={moves} />
          </VersionCard>
        </div>
      </div>
    </div>
  );
}
