import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/components/breadcrumbs";
import { Card } from "@/components/card";
import { requireRole } from "@/lib/auth/session";
import { loadDocumentVersion } from "@/lib/documents/load-document-version";
import { loadPolicySettings } from "@/lib/policy/settings";
import { DocumentStatusBadge } from "../../../document-status";
import { DraftEditor } from "../../draft-editor";
import { versionFacts } from "../../version-facts";
import { versionMoves } from "../../version-moves";

export const metadata: Metadata = { title: "Edit policy document" };

/**
 * A draft's editor, for its author; for any other version, an editor that starts from its text and
 * saves a new version (the next draft of the document).
 */
export default async function EditDocumentPage({ params }: { params: Promise<{ docKey: string; version: string }> }) {
  const user = await requireRole("writeDocuments");
  const { docKey, version } = await params;
  if (!/^\d{1,9}$/.test(version)) notFound();
  const [page, settings] = await Promise.all([
    loadDocumentVersion({ docKey: decodeURIComponent(docKey), version: Number(version) }),
    loadPolicySettings(),
  ]);
  if (!page) notFound();
  const { doc } = page;
  const key = encodeURIComponent(doc.docKey);
  const moves = versionMoves(versionFacts(page, doc), user, settings["documents.publishRole"]);
  const move = doc.status === "draft" ? moves.edit : moves.newVersion;
  const title = doc.status === "draft" ? `Edit draft v${doc.version}` : `Write a new version from v${doc.version}`;
  return (
    <div className="space-y-4">
      <div>
        <Breadcrumbs
          trail={[
            { href: "/documents", label: "Policies" },
            { href: `/documents/${key}`, label: doc.docKey },
            { href: `/documents/${key}/${doc.version}`, label: `v${doc.version}` },
          ]}
          current={doc.status === "draft" ? "Edit" : "New version"}
        />
        <h1 className="text-lg font-semibold tracking-tight wrap-anywhere text-slate-900">
          {title}: {doc.title}
        </h1>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-[13px] text-slate-600">
          <DocumentStatusBadge status={doc.status} />
          {doc.status === "draft" ? (
            <span>Saved in place; nobody cites it until a second person publishes it.</span>
          ) : (
            <span>Saving makes the next version, a draft of yours; v{doc.version} stays as it is.</span>
          )}
        </p>
      </div>
      <Card id="editor" title="Markdown">
        {move?.allowed ? (
          <DraftEditor
            target={
              doc.status === "draft"
                ? { kind: "draft", documentId: doc.id, contentHash: doc.contentHash }
                : { kind: "newVersion", docKey: doc.docKey }
            }
            source={doc.body}
            initialCheck={{ problems: [], passages: doc.chunks.map(({ heading, text, audience }) => ({ heading, text, audience })) }}
          />
        ) : (
          <div className="space-y-2 text-[13px]">
            <p data-testid="why-not" className="text-amber-900">
              {move?.why ?? "This version cannot be edited."}
            </p>
            <Link href={`/documents/${key}/${doc.version}`} className="font-medium text-indigo-700 hover:underline">
              Back to v{doc.version}
            </Link>
          </div>
        )}
      </Card>
    </div>
  );
}
