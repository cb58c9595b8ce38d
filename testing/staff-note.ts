// A published policy document whose one passage is staff-only, for tests that need a run to retrieve
// one. Made the way every version is made – a draft with its passages, then in review, then
// published – so it keeps to whatever guards hold a published version's passages unchanged.
import type { PrismaClient } from "../generated/prisma/client";
import { sha256Hex } from "../lib/contracts/canonical";

export async function publishStaffNote(client: PrismaClient, note: { docKey: string; title: string; text: string }): Promise<void> {
  const section = "Reviewer notes";
  const body = `# ${section} {audience=staff}\n\n${note.text}\n`;
  const doc = await client.policyDocument.create({
    data: {
      docKey: note.docKey,
      version: 1,
      title: note.title,
      section,
      body,
      source: "Test: a reviewer's note",
      status: "draft",
      contentHash: sha256Hex(body),
      chunks: { create: [{ ordinal: 0, heading: `${note.title}: ${section}`, text: note.text, audience: "staff" }] },
    },
  });
  await client.policyDocument.update({ where: { id: doc.id }, data: { status: "in_review", submittedAt: new Date() } });
  await client.policyDocument.update({ where: { id: doc.id }, data: { status: "published", publishedAt: new Date() } });
}
