// What the pages of one version (the version, its editor) start from, once the page has checked the
// person's role itself (each page says its gate: e2e/access-table.spec.ts reads it there): the version
// and its document's versions (not found for a version that is not a number or does not exist), and
// the least role the settings let publish.
import "server-only";
import { notFound } from "next/navigation";
import { loadDocumentVersion } from "@/lib/documents/load-document-version";
import { loadPolicySettings } from "@/lib/policy/settings";

export async function loadVersionPage(params: Promise<{ docKey: string; version: string }>) {
  const { docKey, version } = await params;
  if (!/^\d{1,9}$/.test(version)) notFound();
  const [page, settings] = await Promise.all([
    loadDocumentVersion({ docKey: decodeURIComponent(docKey), version: Number(version) }),
    loadPolicySettings(),
  ]);
  if (!page) notFound();
  return { page, publishRole: settings["documents.publishRole"] };
}
