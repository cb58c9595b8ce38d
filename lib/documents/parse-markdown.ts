// A policy document as its team writes it: Markdown with front matter. The front matter names the
// document (key, title, locale, owner, audience); each heading starts a section, and each paragraph
// or list of a section is one retrievable passage under that section's heading. A heading ending in
// `{audience=staff}` makes its section staff-only: its passages may be cited to a reviewer but never
// reach a customer. The same parser reads a folder import, an upload, a draft edited in the browser
// and the demo seed's files (docs/policies/), so every way in yields the same passages.
//
//     ---
//     key: return-policy-us
//     title: "US return policy: damaged electronics"
//     locale: en
//     owner: Support Operations
//     ---
//     ## Damaged on arrival
//     Electronics that arrive damaged may be returned …
//
//     ## Repairs instead {audience=staff}
//     Offer a repair through the warranty …
import { fromMarkdown } from "mdast-util-from-markdown";
import { toString } from "mdast-util-to-string";
import type { RootContent } from "mdast";
import { sha256Hex } from "../contracts/canonical";
import { textProblem } from "../contracts/text";

export const DOCUMENT_KEY = /^[a-z0-9][a-z0-9-]{0,79}$/;
export const DOCUMENT_LOCALE = /^[a-z]{2}(-[A-Z]{2})?$/;
export const AUDIENCES = ["customer", "staff"] as const;
export type TAudience = (typeof AUDIENCES)[number];

/** Front-matter keys a file may carry. `version` and `status` are honoured only by the demo seed. */
const FRONT_MATTER_KEYS = ["key", "title", "locale", "owner", "audience", "section", "source", "version", "status"] as const;
type TFrontMatterKey = (typeof FRONT_MATTER_KEYS)[number];

export const MAX_DOCUMENT_CHARS = 200_000;
export const MAX_PASSAGE_CHARS = 4_000;

export interface TParsedPassage {
  heading: string;
  text: string;
  audience: TAudience;
}

export interface TParsedDocument {
  docKey: string;
  title: string;
  locale: string;
  owner: string | null;
  /** The document's section label (front matter `section`, else its title). */
  section: string;
  source: string;
  /** The audience of sections that name none. */
  audience: TAudience;
  /** Seed-only instructions from front matter. */
  version: number | null;
  status: string | null;
  passages: TParsedPassage[];
  /** The source as stored: front matter without the seed-only keys, then the body. */
  body: string;
  /** sha256 hex of `body` (UTF-8): the version's content hash. */
  contentHash: string;
}

export interface TParseProblem {
  /** 1-based line in the source, when one line is at fault. */
  line?: number;
  message: string;
}

export type TParseResult = { ok: true; document: TParsedDocument } | { ok: false; problems: TParseProblem[] };

/** The content hash of a version's stored source. */
export function documentContentHash(body: string): string {
  return sha256Hex(body);
}

function unquote(value: string): string {
  const v = value.trim();
  if ((v.startsWith('"') && v.endsWith('"') && v.length >= 2) || (v.startsWith("'") && v.endsWith("'") && v.length >= 2)) {
    return v.slice(1, -1).replace(/\\"/g, '"');
  }
  return v;
}

interface TFrontMatter {
  fields: Partial<Record<TFrontMatterKey, string>>;
  /** The front-matter lines kept in the stored source (seed-only keys left out). */
  kept: string[];
  /** Lines of the source before the body starts. */
  bodyStartLine: number;
  bodyText: string;
}

function readFrontMatter(source: string, problems: TParseProblem[]): TFrontMatter {
  const lines = source.split("\n");
  if (lines[0]?.trim() !== "---") return { fields: {}, kept: [], bodyStartLine: 0, bodyText: source };
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
  if (end < 0) {
    problems.push({ line: 1, message: "The front matter opened with --- is never closed with a line of ---." });
    return { fields: {}, kept: [], bodyStartLine: 0, bodyText: "" };
  }
  const fields: TFrontMatter["fields"] = {};
  const kept: string[] = [];
  for (let i = 1; i < end; i++) {
    const line = lines[i]!;
    if (!line.trim() || line.trim().startsWith("#")) continue;
    const m = line.match(/^([A-Za-z]+)\s*:\s*(.*)$/);
    if (!m) {
      problems.push({
        line: i + 1,
        message: `Front matter lines are "name: value"; this one is not: ${JSON.stringify(line.slice(0, 60))}.`,
      });
      continue;
    }
    const key = m[1]!.toLowerCase() as TFrontMatterKey;
    if (!FRONT_MATTER_KEYS.includes(key)) {
      problems.push({ line: i + 1, message: `Unknown front matter "${m[1]}": use ${FRONT_MATTER_KEYS.slice(0, 7).join(", ")}.` });
      continue;
    }
    if (fields[key] !== undefined) {
      problems.push({ line: i + 1, message: `"${key}" is given twice in the front matter.` });
      continue;
    }
    fields[key] = unquote(m[2]!);
    if (key !== "version" && key !== "status") kept.push(line.trimEnd());
  }
  return { fields, kept, bodyStartLine: end + 1, bodyText: lines.slice(end + 1).join("\n") };
}

const STAFF_MARK = /\s*\{\s*audience\s*=\s*(customer|staff)\s*\}\s*$/;

/** A passage's text from a block: paragraphs as written, a list's items as sentences of one passage. */
function blockText(node: RootContent): string | null {
  switch (node.type) {
    case "paragraph":
    case "code":
      return toString(node).replace(/\s+/g, " ").trim();
    case "list":
      return node.children
        .map((item) => toString(item).replace(/\s+/g, " ").trim())
        .filter(Boolean)
        .map((t) => (/[.!?:;]$/.test(t) ? t : `${t}.`))
        .join(" ");
    case "blockquote":
      return toString(node).replace(/\s+/g, " ").trim();
    default:
      return null;
  }
}

/**
 * Parses one document's Markdown source. Nothing is guessed: a missing key or title, a key or
 * locale of the wrong form, an unknown front-matter name, a control character or a document with
 * no passage is a problem with its line, and no document comes back.
 */
export function parsePolicyMarkdown(raw: string, defaults: { docKey?: string } = {}): TParseResult {
  const problems: TParseProblem[] = [];
  const source = raw.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (source.length > MAX_DOCUMENT_CHARS)
    return { ok: false, problems: [{ message: `The document is longer than ${MAX_DOCUMENT_CHARS.toLocaleString("en-US")} characters.` }] };
  const control = textProblem(source, { multiline: true });
  if (control) return { ok: false, problems: [{ message: `The document ${control}.` }] };

  const front = readFrontMatter(source, problems);
  // An unclosed front matter hides every name in it: saying the key and title are missing would be untrue.
  if (problems.length && front.bodyStartLine === 0) return { ok: false, problems };
  const f = front.fields;
  const docKey = f.key ?? defaults.docKey ?? "";
  if (!docKey) problems.push({ line: 1, message: 'The front matter names no key ("key: return-policy-us").' });
  else if (!DOCUMENT_KEY.test(docKey))
    problems.push({ line: 1, message: `The key "${docKey}" is not lower-case letters, digits and hyphens (at most 80).` });
  const title = (f.title ?? "").trim();
  if (!title) problems.push({ line: 1, message: 'The front matter names no title ("title: …").' });
  const locale = f.locale ?? "en";
  if (!DOCUMENT_LOCALE.test(locale))
    problems.push({ line: 1, message: `The locale "${locale}" is not a language code like "en" or "es-MX".` });
  const audience = (f.audience ?? "customer") as TAudience;
  if (!AUDIENCES.includes(audience)) problems.push({ line: 1, message: `The audience "${f.audience}" is neither customer nor staff.` });
  let version: number | null = null;
  if (f.version !== undefined) {
    version = /^\d{1,6}$/.test(f.version) && Number(f.version) > 0 ? Number(f.version) : null;
    if (version === null) problems.push({ line: 1, message: `The version "${f.version}" is not a positive whole number.` });
  }

  const section = (f.section ?? title).trim();
  const passages: TParsedPassage[] = [];
  let heading = `${title}: ${section}`;
  let sectionAudience = audience;
  const tree = fromMarkdown(front.bodyText);
  for (const node of tree.children) {
    if (node.type === "heading") {
      const text = toString(node).trim();
      const mark = text.match(STAFF_MARK);
      sectionAudience = mark ? (mark[1] as TAudience) : audience;
      const name = text.replace(STAFF_MARK, "").trim();
      // A first-level heading repeating the title starts no section of its own.
      heading = node.depth === 1 && name === title ? `${title}: ${section}` : `${title}: ${name || section}`;
      continue;
    }
    const text = blockText(node);
    if (!text) continue;
    if (text.length > MAX_PASSAGE_CHARS) {
      problems.push({
        line: front.bodyStartLine + (node.position?.start.line ?? 1),
        message: `A passage is longer than ${MAX_PASSAGE_CHARS.toLocaleString("en-US")} characters: split it into paragraphs.`,
      });
      continue;
    }
    passages.push({ heading, text, audience: sectionAudience });
  }
  if (!passages.length && !problems.length) problems.push({ message: "The document has no paragraph: nothing in it could be cited." });
  if (problems.length) return { ok: false, problems };

  const body = front.kept.length ? ["---", ...front.kept, "---", front.bodyText.replace(/^\n+/, "")].join("\n") : front.bodyText;
  return {
    ok: true,
    document: {
      docKey,
      title,
      locale,
      owner: f.owner?.trim() || null,
      section,
      source: f.source?.trim() || "Imported Markdown",
      audience,
      version,
      status: f.status ?? null,
      passages,
      body,
      contentHash: documentContentHash(body),
    },
  };
}
