// A parsed document as the store writes a version: the columns its content hash and passages come from.
import type { TParsedDocument } from "./parse-markdown";
import type { TVersionContent } from "./store/document-store";

export function versionContent(doc: TParsedDocument): TVersionContent {
  return {
    title: doc.title,
    section: doc.section,
    body: doc.body,
    source: doc.source,
    locale: doc.locale,
    owner: doc.owner,
    contentHash: doc.contentHash,
    passages: doc.passages,
  };
}
