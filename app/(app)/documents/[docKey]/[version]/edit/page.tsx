import type { Metadata } from "next";
import Link from "next/link";
import { Card } from "@/components/card";
import { DocumentStatusBadge } from "../../../document-status";
import { DocumentHeader } from "../../document-header";
import { DraftEditor } from "../../draft-editor";
import { versionFacts } from "../../version-facts";
import { versionMoves } from "../../version-moves";
import { requireRole } from "@/lib/auth/session";
import { loadVersionPage } from "../load-version-page";

export const metadata: Metadata = { title: "Edit policy document" };

/**
 * A draft's editor, for its author; for any other version, an editor that starts from its text and
 * saves a new version (the next draft of the document).
 */
export default async function EditDocumentPage({ params }: { params: Promise<{ docKey: string; version: string }> }) {
  const user = await requireRole("writeDocuments");
  const { page, publishRole } = await loadVersionPage(params);
  const { doc } = page;
  const key = encodeURIComponent(doc.docKey);
  const moves = versionMoves(versionFacts(page, doc), user, publishRole);
  const move = doc.status === "draft" ? moves.edit : moves.newVersion;
  const title = doc.status === "draft" ? `Edit draft v${doc.version}` : `Write a new version from v${doc.version}`;
  return (
    <div className="space-y-4">
      <DocumentHeader
        docKey={doc.docKey}
        version={doc.version}
        current={doc.status === "draft" ? "Edit" : "New version"}
        title={`${title}: ${doc.title}`}
        facts={
          <>
            <DocumentStatusBadge status={doc.status} />
            {doc.status === "draft" ? (
              <span>Saved in place; nobody cites it until a second person publishes it.</span>
            ) : (
              <span>Saving makes the next version, a draft of yours; v{doc.version} stays as it is.</span>
            )}
          </>
        }
      />
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
