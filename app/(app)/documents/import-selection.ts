// What the import form checks in the browser before anything is sent: which picked files are Markdown,
// that each is UTF-8 text within the size a document may have, and that the whole upload fits the
// body a server action accepts (next.config.mjs, serverActions.bodySizeLimit). A file that fails is
// kept in the selection with its reason and not sent; the server checks everything again.

export interface TImportLimits {
  /** Files in one upload. */
  maxFiles: number;
  /** Bytes of one file (the import's own limit). */
  maxFileBytes: number;
  /** Bytes of the encoded upload, under the server action's body limit. */
  maxPayloadBytes: number;
}

/** One picked file: its path (inside the chosen folder, for a folder), its text, or why it cannot be sent. */
export interface TPickedFile {
  name: string;
  bytes: number;
  text: string | null;
  problem: string | null;
}

const MARKDOWN = /\.(md|markdown)$/i;

export const isMarkdownName = (name: string) => MARKDOWN.test(name);

/** A file's path as the person chose it: inside its folder when a folder was chosen. */
export function pickedName(file: { name: string; webkitRelativePath?: string }): string {
  return file.webkitRelativePath || file.name;
}

const oneDecimal = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** 512 → "512 B", 262144 → "256 KB", 4128768 → "3.9 MB" (powers of 1024, as the limits are set). */
export const formatBytes = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${oneDecimal(bytes / 1024)} KB` : `${oneDecimal(bytes / 1024 / 1024)} MB`;

/**
 * The text of one file's bytes, refused rather than repaired: bytes that are not UTF-8 would
 * otherwise reach the document as U+FFFD, a change nobody asked for.
 */
export function decodePicked(name: string, bytes: Uint8Array, limits: Pick<TImportLimits, "maxFileBytes">): TPickedFile {
  if (bytes.length > limits.maxFileBytes)
    return {
      name,
      bytes: bytes.length,
      text: null,
      problem: `It is ${formatBytes(bytes.length)}; a document may be at most ${formatBytes(limits.maxFileBytes)}. Split it into several documents.`,
    };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { name, bytes: bytes.length, text: null, problem: "It is not UTF-8 text: save it as UTF-8 and choose it again." };
  }
  return { name, bytes: bytes.length, text, problem: null };
}

/** The selection after adding `added` to `current`: a file chosen again replaces the one of the same name. */
export function mergeSelection(current: readonly TPickedFile[], added: readonly TPickedFile[]): TPickedFile[] {
  const byName = new Map(current.map((f) => [f.name, f]));
  for (const file of added) byName.set(file.name, file);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The bytes the upload takes in the action's body: its files as the action's argument encodes them. */
export function payloadBytes(files: readonly { name: string; text: string }[]): number {
  return new TextEncoder().encode(JSON.stringify([{ files }])).length;
}

/** Why the files that can be sent cannot be sent together, in words that say what to do; null when they can. */
export function uploadProblem(sendable: readonly { name: string; text: string }[], limits: TImportLimits): string | null {
  if (sendable.length > limits.maxFiles)
    return `${sendable.length} files are more than one upload takes (${limits.maxFiles}): import the folder in parts.`;
  const bytes = payloadBytes(sendable);
  if (bytes > limits.maxPayloadBytes)
    return `These files make ${formatBytes(bytes)}, more than one upload takes (${formatBytes(limits.maxPayloadBytes)}): import them in parts.`;
  return null;
}
