"use server";
// Batch decisions from the preview: every item decided against the digest the preview showed
// (lib/approvals/decide-batch.ts, which goes through decideApproval for each).
import { z } from "zod";
import { plainText } from "@/lib/contracts/text";
import { authedAction } from "@/lib/auth/authed";
import { decideBatch, MAX_BATCH_DECISIONS } from "@/lib/approvals/decide-batch";
import { QUEUES } from "@/lib/jobs/queue";
import { processWorker } from "@/lib/jobs/worker";

const ZBatch = z.object({
  items: z
    .array(z.object({ approvalId: z.uuid(), digest: z.string().regex(/^[0-9a-f]{64}$/, "is not a digest") }))
    .min(1, "Select at least one request.")
    .max(MAX_BATCH_DECISIONS),
  decision: z.enum(["approve", "reject"]),
  note: plainText(z.string().max(2000), { multiline: true, label: "The note" }).optional(),
});

export const decideBatchAction = authedAction({ area: "approve", input: ZBatch }, async ({ input, user }) => {
  const outcomes = await decideBatch({ ...input, actor: { id: user.id, role: user.role } });
  if (outcomes.some((o) => o.outcome === "approved" && o.refund)) processWorker()?.nudge(QUEUES.refundExecute);
  return { outcomes };
});
