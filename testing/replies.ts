// A reply approved on a fresh ticket that came from a helpdesk, for the delivery tests: the thread is
// written as the inbound route writes it, the draft is the rule planner's, the decision the reviewer's
// through decideApproval (which releases the reply with its delivery and the delivery's job).
import type { PrismaClient } from "../generated/prisma/client";
import { decideApproval } from "../lib/approvals/decide-approval";
import { insertThread } from "../lib/delivery/store/delivery-store";
import { approvalFor, freshOrder, ticketFrom, user } from "./runs";

export async function approvedReply(
  client: PrismaClient,
  thread: { channel: "zendesk" | "email"; externalTicketId?: string; messageId?: string; subject?: string } | null,
) {
  const world = await freshOrder(client);
  const ticketId = await ticketFrom(client, world, {
    subject: "How long does a refund take?",
    body: "If my refund is approved, how long until I see the money?",
  });
  const request = await approvalFor(client, ticketId);
  if (request.kind !== "reply") throw new Error(`expected a reply request, got ${request.kind}`);
  if (thread) await insertThread(client, { ticketId, ...thread });
  await decideApproval({
    approvalId: request.id,
    decision: "approve",
    note: null,
    digest: request.digest,
    actor: await user(client, "REVIEWER"),
  });
  const message = await client.outboxMessage.findUniqueOrThrow({ where: { approvalRequestId: request.id }, include: { delivery: true } });
  return { request, message, delivery: message.delivery! };
}
