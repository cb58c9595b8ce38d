// Imports Markdown policy documents as drafts (a folder from the command line, files uploaded on a
// page). All or nothing: every file is read first, and if any has a problem, every problem comes back
// with its file and line and nothing is written. Then, per document, against its latest version:
//   the same content hash            → unchanged (a second import of the same files writes nothing);
//   a draft by the same person       → that draft updated in place;
//   anything else                    → a new version, latest + 1, a draft by the importing person.
// A draft is never evidence, so an import changes nothing a customer or a reviewer sees until a
// second person publishes it (publish-version.ts).
import { AppError } from "../contracts/app-error";
import { textProblem } from "../contracts/text";
import { recordAuditEvents } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";
import { assertDocumentsArea, documentEvent, type TDocumentActor } from "./document-rules";
import { parsePolicyMarkdown, type TParsedDocument, type TParseProblem } from "./parse-markdown";
import { insertDraftVersions, lockDocumentKeys, replaceDraftContent, type TNewVersion } from "./store/document-store";
import { versionContent } from "./version-content";

/** What one import takes: more is refused whole, before anything is read. */
export const IMPORT_LIMITS = {
  files: 500,
  /** Bytes of one file (UTF-8). */
  fileBytes: 256 * 1024,
  /** Bytes of all files together. */
  totalBytes: 16 * 1024 * 1024,
  nameChars: 300,
} as const;

export interface TImportFile {
  /** The file's name or path as the person knows it (shown back with each outcome). */
  name: string;
  text: string;
}

export type TImportOutcome =
  | { name: string; status: "created" | "updated"; docKey: string; version: number; documentId: string; notes: string[] }
  | { name: string; status: "unchanged"; docKey: string; version: number; documentId: string; notes: string[] }
  /** Fine on its own, not imported: another file of this import has a problem, or a later version of the same key. */
  | { name: string; status: "held" | "skipped"; docKey: string; reason: string }
  | { name: string; status: "problems"; problems: TParseProblem[] };

export interface TImportResult {
  /** False when any file has a problem: then nothing was written. */
  ok: boolean;
  files: TImportOutcome[];
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MiB`;

function assertWithinLimits(files: readonly TImportFile[]): void {
  if (!files.length) throw new AppError("invalid", "Choose at least one Markdown file to import.", "files");
  if (files.length > IMPORT_LIMITS.files)
    throw new AppError(
      "import_too_large",
      `${files.length} files is more than one import takes (${IMPORT_LIMITS.files}): import the folder in parts. Nothing was imported.`,
      "files",
    );
  const total = files.reduce((sum, f) => sum + Buffer.byteLength(f.text, "utf8"), 0);
  if (total > IMPORT_LIMITS.totalBytes)
    throw new AppError(
      "import_too_large",
      `The files come to ${mib(total)}, more than one import takes (${mib(IMPORT_LIMITS.totalBytes)}): import them in parts. Nothing was imported.`,
      "files",
    );
}

/** A file's own problems: its name, its size, then its Markdown. */
function readFile(file: TImportFile): { ok: true; document: TParsedDocument } | { ok: false; problems: TParseProblem[] } {
  const nameProblem = textProblem(file.name);
  if (!file.name.trim() || nameProblem || file.name.length > IMPORT_LIMITS.nameChars)
    return { ok: false, problems: [{ message: `The file name is empty, too long or ${nameProblem ?? "unreadable"}.` }] };
  const bytes = Buffer.byteLength(file.text, "utf8");
  if (bytes > IMPORT_LIMITS.fileBytes)
    return {
      ok: false,
      problems: [
        { message: `The file is ${Math.ceil(bytes / 1024)} KiB, more than a document may be (${IMPORT_LIMITS.fileBytes / 1024} KiB).` },
      ],
    };
  // A file without a key in its front matter takes its name's ("return-policy-us.v2.md" → return-policy-us).
  const base = file.name
    .split(/[\\/]/)
    .pop()!
    .replace(/\.(md|markdown)$/i, "")
    .replace(/\.v\d+$/, "");
  return parsePolicyMarkdown(file.text, { docKey: base.toLowerCase() });
}

type TRead = { file: TImportFile; document: TParsedDocument };

/**
 * Several files of one key: the one whose front matter names the highest version is imported, the
 * others are skipped (a folder that keeps a document's history, like docs/policies/). Without distinct
 * versions to tell them apart, each is a problem: which one is meant cannot be guessed.
 */
function chooseOnePerKey(read: readonly TRead[]): {
  chosen: TRead[];
  skipped: Map<TImportFile, string>;
  clashes: Map<TImportFile, string>;
} {
  const byKey = new Map<string, TRead[]>();
  for (const r of read) byKey.set(r.document.docKey, [...(byKey.get(r.document.docKey) ?? []), r]);
  const chosen: TRead[] = [];
  const skipped = new Map<TImportFile, string>();
  const clashes = new Map<TImportFile, string>();
  for (const [docKey, group] of byKey) {
    const versions = group.map((r) => r.document.version);
    if (group.length === 1) chosen.push(group[0]!);
    else if (versions.every((v) => v !== null) && new Set(versions).size === group.length) {
      const latest = group.reduce((a, b) => (b.document.version! > a.document.version! ? b : a));
      chosen.push(latest);
      for (const r of group) if (r !== latest) skipped.set(r.file, `${latest.file.name} is a later version of ${docKey}.`);
    } else {
      const names = group.map((r) => r.file.name);
      for (const r of group)
        clashes.set(
          r.file,
          `The key ${docKey} is also in ${names.filter((n) => n !== r.file.name).join(", ")}: one import takes one version of a document.`,
        );
    }
  }
  return { chosen, skipped, clashes };
}

const SEED_ONLY_NOTE = "Its front matter's version and status are the demo seed's: it was imported as a draft.";

interface TLatest {
  id: string;
  docKey: string;
  version: number;
  status: string;
  authorId: string | null;
  contentHash: string;
}

/** What the import does to each chosen document, against its latest version. */
function plan(chosen: readonly TRead[], latest: ReadonlyMap<string, TLatest>, actor: TDocumentActor) {
  const creates: (TNewVersion & { file: TImportFile; notes: string[] })[] = [];
  const updates: { read: TRead; row: TLatest; notes: string[] }[] = [];
  const unchanged: { read: TRead; row: TLatest; notes: string[] }[] = [];
  for (const read of chosen) {
    const { document } = read;
    const row = latest.get(document.docKey);
    const notes = document.version !== null || document.status !== null ? [SEED_ONLY_NOTE] : [];
    if (row && row.contentHash === document.contentHash) unchanged.push({ read, row, notes });
    else if (row && row.status === "draft" && row.authorId === actor.id) updates.push({ read, row, notes });
    else
      creates.push({
        ...versionContent(document),
        docKey: document.docKey,
        version: (row?.version ?? 0) + 1,
        authorId: actor.id,
        file: read.file,
        notes,
      });
  }
  return { creates, updates, unchanged };
}

async function write(client: Db, chosen: readonly TRead[], actor: TDocumentActor): Promise<Map<TImportFile, TImportOutcome>> {
  return client.$transaction(async (tx) => {
    const keys = chosen.map((r) => r.document.docKey);
    await lockDocumentKeys(tx, keys);
    const rows = await tx.policyDocument.findMany({
      where: { docKey: { in: keys } },
      orderBy: [{ docKey: "asc" }, { version: "desc" }],
      distinct: ["docKey"],
      select: { id: true, docKey: true, version: true, status: true, authorId: true, contentHash: true },
    });
    const { creates, updates, unchanged } = plan(chosen, new Map(rows.map((r) => [r.docKey, r])), actor);
    await recordAuditEvents(tx, [
      ...creates.map((c) =>
        documentEvent(actor, "document.imported", c.docKey, {
          version: c.version,
          contentHash: c.contentHash,
          outcome: "created",
          file: c.file.name,
        }),
      ),
      ...updates.map((u) =>
        documentEvent(actor, "document.imported", u.row.docKey, {
          version: u.row.version,
          contentHash: u.read.document.contentHash,
          previousContentHash: u.row.contentHash,
          outcome: "updated",
          file: u.read.file.name,
        }),
      ),
    ]);
    const ids = await insertDraftVersions(tx, creates);
    await replaceDraftContent(
      tx,
      updates.map((u) => ({ id: u.row.id, authorId: actor.id, content: versionContent(u.read.document) })),
    );
    const outcomes = new Map<TImportFile, TImportOutcome>();
    creates.forEach((c, i) =>
      outcomes.set(c.file, {
        name: c.file.name,
        status: "created",
        docKey: c.docKey,
        version: c.version,
        documentId: ids[i]!,
        notes: c.notes,
      }),
    );
    for (const [status, list] of [
      ["updated", updates],
      ["unchanged", unchanged],
    ] as const)
      for (const { read, row, notes } of list)
        outcomes.set(read.file, { name: read.file.name, status, docKey: row.docKey, version: row.version, documentId: row.id, notes });
    return outcomes;
  });
}

type TChecked = { file: TImportFile; result: ReturnType<typeof readFile> };

/** A file's outcome: its problems, else what the import did with it (nothing, when it failed). */
function outcomeOf(
  { file, result }: TChecked,
  choice: ReturnType<typeof chooseOnePerKey>,
  written: ReadonlyMap<TImportFile, TImportOutcome>,
): TImportOutcome {
  if (!result.ok) return { name: file.name, status: "problems", problems: result.problems };
  const { clashes, skipped } = choice;
  if (clashes.has(file)) return { name: file.name, status: "problems", problems: [{ message: clashes.get(file)! }] };
  const docKey = result.document.docKey;
  if (skipped.has(file)) return { name: file.name, status: "skipped", docKey, reason: skipped.get(file)! };
  return (
    written.get(file) ?? {
      name: file.name,
      status: "held",
      docKey,
      reason: "Another file of this import has a problem, so nothing was imported.",
    }
  );
}

export async function importDocuments(input: {
  files: readonly TImportFile[];
  actor: TDocumentActor;
  client?: Db;
  /** Called as files are checked (a command line shows it): files checked so far, of how many. */
  onProgress?: (checked: number, of: number) => void;
}): Promise<TImportResult> {
  assertDocumentsArea(input.actor);
  assertWithinLimits(input.files);
  const checked: TChecked[] = input.files.map((file, i) => {
    const result = readFile(file);
    input.onProgress?.(i + 1, input.files.length);
    return { file, result };
  });
  const choice = chooseOnePerKey(checked.flatMap(({ file, result }) => (result.ok ? [{ file, document: result.document }] : [])));
  const ok = checked.every(({ result }) => result.ok) && choice.clashes.size === 0;
  const written = ok ? await write(input.client ?? defaultDb(), choice.chosen, input.actor) : new Map<TImportFile, TImportOutcome>();
  return { ok, files: checked.map((c) => outcomeOf(c, choice, written)) };
}
