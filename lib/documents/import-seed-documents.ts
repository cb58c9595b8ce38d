// The demo seed's policy documents: the Markdown files of docs/policies/, read by the same parser as
// every import, each version written in the state its front matter names (`version`, `status`: honoured
// here only – an import by a person always makes a draft). Idempotent: a version that exists is left
// exactly as it is, so a second seed writes nothing. Deterministic: versions are written in key and
// version order, whatever order the files came in. A file that does not parse is a bug in the seed
// data, refused with every problem and its file and line before anything is written.
import type { DocumentStatus } from "../../generated/prisma/enums";
import type { Db } from "../db";
import type { TImportFile } from "./import-documents";
import { parsePolicyMarkdown, type TParsedDocument } from "./parse-markdown";
import { insertSeedVersions, type TSeedVersion } from "./store/document-store";
import { versionContent } from "./version-content";

const STATUSES: readonly DocumentStatus[] = ["draft", "in_review", "published", "retired"];

function seedVersion(name: string, doc: TParsedDocument, problems: string[]): TSeedVersion | null {
  const status = (doc.status ?? "published") as DocumentStatus;
  if (!STATUSES.includes(status)) {
    problems.push(`${name}: the status "${doc.status}" is not one of ${STATUSES.join(", ")}.`);
    return null;
  }
  return { ...versionContent(doc), docKey: doc.docKey, version: doc.version ?? 1, authorId: null, status };
}

function seedVersions(files: readonly TImportFile[]): TSeedVersion[] {
  const problems: string[] = [];
  const versions: TSeedVersion[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const parsed = parsePolicyMarkdown(file.text);
    if (!parsed.ok) {
      problems.push(...parsed.problems.map((p) => `${file.name}${p.line ? `:${p.line}` : ""}: ${p.message}`));
      continue;
    }
    const version = seedVersion(file.name, parsed.document, problems);
    if (!version) continue;
    const id = `${version.docKey}@${version.version}`;
    if (seen.has(id)) problems.push(`${file.name}: ${id} is also ${seen.get(id)}.`);
    seen.set(id, file.name);
    versions.push(version);
  }
  if (problems.length) throw new Error(`The demo policy documents have problems; nothing was seeded:\n${problems.join("\n")}`);
  return versions.sort((a, b) => (a.docKey === b.docKey ? a.version - b.version : a.docKey < b.docKey ? -1 : 1));
}

/** Writes the versions the database does not have yet; returns how many it wrote. */
export async function importSeedDocuments(input: { files: readonly TImportFile[]; client: Db }): Promise<number> {
  const versions = seedVersions(input.files);
  return input.client.$transaction(async (tx) => {
    const existing = await tx.policyDocument.findMany({
      where: { docKey: { in: [...new Set(versions.map((v) => v.docKey))] } },
      select: { docKey: true, version: true },
    });
    const have = new Set(existing.map((e) => `${e.docKey}@${e.version}`));
    const missing = versions.filter((v) => !have.has(`${v.docKey}@${v.version}`));
    await insertSeedVersions(tx, missing, new Date());
    return missing.length;
  });
}
