// What the pages of one version (the version, its editor) start from: the person, with the role the
// page needs, the version and its document's versions (not found for a version that is not a
// number or does not exist), and the least role the settings let publish.
import "server-only";
import { notFound } from "next/navigation";
import { requireRole } from "@/lib/auth/session";
import { loadDocumentVersion } from "@/lib/documents/load-document-version";
import { loadPolicySettings } from "@/lib/policy/settings";

export async function loadVersionPage(params: Promise<{ docKey: string; version: string }>, access: "documents" | "writeDocuments") {
  const user = await requireRole(access);
  const { docKey, version } = await params;
  if (!/^\d{1,9}$/.test(version)) notFound();
  const [page, settings] = await Promise.all([
    loadDocumentVersion({ docKey: decodeURIComponent(docKey), version: Number(version) }),
    loadPolicySettings(),
  ]);
  if (!page) notFound();
  return { user, page, publishRole: settings["documents.publishRole"] };
}
