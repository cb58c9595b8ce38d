// Policy documents written straight into a test database, each version in the state a test needs:
// Markdown read with the same parser every way in uses (parsePolicyMarkdown), a version written as a
// draft with its passages, then moved along draft → in_review → published (→ retired) as the lifecycle
// moves it, so the database's own rules (a published version's passages never change) hold here too.
// For tests of what retrieval reads; the product's ways in are the import and the lifecycle's functions
// (the demo seed imports docs/policies/ through them).
import type { PrismaClient } from "../generated/prisma/client";
import { parsePolicyMarkdown, type TParsedDocument } from "../lib/documents/parse-markdown";

export type TVersionState = "draft" | "in_review" | "published" | "scheduled" | "retired";

export interface TTestVersion {
  /** Markdown with front matter (key, title, locale…), or a parsed document. */
  markdown: string;
  version?: number;
  /** Default: the front matter's status, else published. "scheduled" is published with effectiveAt a day ahead. */
  state?: TVersionState;
}

function parsed(markdown: string): TParsedDocument {
  const result = parsePolicyMarkdown(markdown);
  if (!result.ok) throw new Error(`not a policy document: ${result.problems.map((p) => `${p.line ?? "-"}: ${p.message}`).join("; ")}`);
  return result.document;
}

const PATH: Record<TVersionState, string[]> = {
  draft: [],
  in_review: ["in_review"],
  published: ["in_review", "published"],
  scheduled: ["in_review", "published"],
  retired: ["in_review", "published", "retired"],
};

/** Writes one version; returns its docKey@version. */
export async function writeTestVersion(client: PrismaClient, input: TTestVersion): Promise<string> {
  const document = parsed(input.markdown);
  const version = input.version ?? document.version ?? 1;
  const state = input.state ?? ((document.status as TVersionState | null) || "published");
  const row = await client.policyDocument.create({
    data: {
      docKey: document.docKey,
      version,
      title: document.title,
      section: document.section,
      source: document.source,
      body: document.body,
      locale: document.locale,
      owner: document.owner,
      contentHash: document.contentHash,
      status: "draft",
      chunks: { create: document.passages.map((p, ordinal) => ({ ordinal, heading: p.heading, text: p.text, audience: p.audience })) },
    },
    select: { id: true },
  });
  const now = Date.now();
  for (const status of PATH[state]) {
    const published =
      status === "published" ? { publishedAt: new Date(now), effectiveAt: state === "scheduled" ? new Date(now + 86_400_000) : null } : {};
    await client.policyDocument.update({
      where: { id: row.id },
      data: {
        status: status as "in_review" | "published" | "retired",
        ...published,
        ...(status === "retired" ? { retiredAt: new Date(now) } : {}),
      },
    });
  }
  return `${document.docKey}@${version}`;
}
