// A reply released to the customer: its body as sent (with the disclosure line when the setting asks
// and the agent drafted it) and its delivery, whose id the delivery job carries from its first attempt
// to its last (lib/delivery/deliver-reply.ts).
import { randomUUID } from "node:crypto";
import { disclosedReply } from "../contracts/disclosure";
import { env } from "../env";
import type { DbTx } from "../db";
import type { TSqlTx } from "../db/driver";
import { REPLY_DELIVER_JOB } from "../jobs/definitions";
import { enqueue } from "../jobs/queue";

export function replyRelease(reply: string, aiDrafted: boolean): { body: string; delivery: { id: string; disclosed: boolean } } {
  const e = env();
  const settings = { enabled: e.REPLY_DISCLOSURE, locale: e.REPLY_DISCLOSURE_LOCALE, reviewer: e.REPLY_DISCLOSURE_REVIEWER ?? null };
  const { body, disclosed } = disclosedReply(reply, { aiDrafted, settings });
  return { body, delivery: { id: randomUUID(), disclosed } };
}

/** The delivery's job, in the transaction that released the reply: both commit, or neither. */
export async function enqueueDelivery(tx: DbTx | TSqlTx, deliveryId: string): Promise<void> {
  await enqueue(tx, REPLY_DELIVER_JOB, { deliveryId }, { id: deliveryId });
}
