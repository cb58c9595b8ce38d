// A published policy document with a staff-only section, for tests that need a run to retrieve one. A
// document enters a run's evidence for a passage the customer may read, and brings its staff-only
// passages with it for the reviewer (buildContextPack), so it has one of each. Made the way every
// version is made – a draft with its passages, then in review, then published – so it keeps to the
// guards that hold a published version's passages unchanged.
import type { PrismaClient } from "../generated/prisma/client";
import { sha256Hex } from "../lib/contracts/canonical";

export async function publishStaffNote(
  client: PrismaClient,
  note: { docKey: string; title: string; customer: string; staff: string },
): Promise<void> {
  const [section, notes] = ["Inspection", "Reviewer notes"];
  const body = `${note.customer}\n\n# ${notes} {audience=staff}\n\n${note.staff}\n`;
  const doc = await client.policyDocument.create({
    data: {
      docKey: note.docKey,
      version: 1,
      title: note.title,
      section,
      body,
      source: "Test: a policy with a reviewer's note",
      status: "draft",
      contentHash: sha256Hex(body),
      chunks: {
        create: [
          { ordinal: 0, heading: `${note.title}: ${section}`, text: note.customer, audience: "customer" },
          { ordinal: 1, heading: `${note.title}: ${notes}`, text: note.staff, audience: "staff" },
        ],
      },
    },
  });
  await client.policyDocument.update({ where: { id: doc.id }, data: { status: "in_review", submittedAt: new Date() } });
  await client.policyDocument.update({ where: { id: doc.id }, data: { status: "published", publishedAt: new Date() } });
}

/** A note the cracked-tablet question retrieves beside the return policy's passages. */
export const DAMAGED_RETURNS_NOTE = {
  docKey: "damaged-returns-inspection",
  title: "Refunds for damaged electronics",
  // Worded so that the cracked-tablet question ranks it first, and its reviewer's note next: a
  // staff-only passage comes into the evidence after its document's customer passage.
  customer:
    "Damaged electronics that arrive damaged and are returned for a refund within the days after delivery are inspected when they reach us; the refund for damaged electronics does not wait for the inspection.",
  staff:
    "When damaged electronics arrive and a refund is asked within days of delivery, check the customer's order history for earlier damage claims before approving.",
};
