// Pending requests past their expiry are marked expired, so no page offers them and the reviewer
// sees at once that the agent must run again. The decision itself refuses an expired request too:
// this sweep only makes the state visible.
import { db as defaultDb, type Db } from "../db";
import { prismaSqlTx } from "../db/driver";
import { recordAuditEvent } from "../audit/record-audit-event";
import { markExpired } from "./store/approval-store";

export async function expirePendingApprovals(input: { client?: Db; now?: Date } = {}): Promise<{ expired: number }> {
  const client = input.client ?? defaultDb();
  const now = input.now ?? new Date();
  const due = await client.approvalRequest.findMany({
    where: { status: "pending", expiresAt: { lt: now } },
    select: { id: true, ticketId: true },
    take: 1000,
  });
  let expired = 0;
  for (const request of due) {
    await client.$transaction(async (tx) => {
      if (!(await markExpired(prismaSqlTx(tx), request.id))) return;
      await recordAuditEvent(tx, {
        actorType: "system",
        actorId: "approval-sweeper",
        action: "approval.expired",
        subjectType: "approval",
        subjectId: request.id,
        ticketId: request.ticketId,
      });
      expired++;
    });
  }
  return { expired };
}
