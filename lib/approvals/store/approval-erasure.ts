// Erasure of the text the approvals kept about a customer: the draft and the customer's text in each
// request and its operation, the reviewers' notes and edited replies in the decisions (the only
// columns of that append-only table a trigger lets be cleared), and the bodies in the outbox. Each
// request keeps its digest, amounts, versions, status and times; each decision its signature, which
// covers none of the cleared columns, so every decision still verifies.
import type { DbTx } from "../../db";

export async function eraseApprovalRows(tx: DbTx, ticketIds: string[]): Promise<number> {
  const requests = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "ApprovalRequest"
       SET "draft" = NULL, "operation" = "operation"::jsonb || '{"draft": null, "customerText": null}'::jsonb
     WHERE "ticketId" = ANY(${ticketIds}::uuid[]) RETURNING id`;
  const ids = requests.map((r) => r.id);
  if (ids.length) {
    await tx.$executeRaw`
      UPDATE "ApprovalDecision" SET "note" = NULL, "originalReply" = NULL, "editedReply" = NULL
      WHERE "approvalRequestId" = ANY(${ids}::uuid[])
        AND ("note" IS NOT NULL OR "originalReply" IS NOT NULL OR "editedReply" IS NOT NULL)`;
  }
  await tx.$executeRaw`UPDATE "OutboxMessage" SET "body" = '' WHERE "ticketId" = ANY(${ticketIds}::uuid[])`;
  return ids.length;
}
