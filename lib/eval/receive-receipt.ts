// A receipt `npm run eval` graded, stored through the running server (the CLI cannot open the
// embedded database the server holds). The request is signed with EVAL_SECRET over its timestamp and
// body; the release decision is made here again from the receipt and this server's manifest, never
// taken from the caller; and a replayed request (the same body) answers the run it already stored.
import { z } from "zod";
import { AppError } from "../contracts/app-error";
import { agentManifest } from "../contracts/manifest";
import { db as defaultDb, isUniqueViolation, type Db } from "../db";
import { evalSecret } from "../env";
import { decideRelease, releasePins } from "./decide-release";
import { bodyDigest, verifyReceiptSignature } from "./eval-cli";
import { ZReceipt } from "./receipt";
import { storeEvalRun } from "./store-eval-run";

const ZBody = z.object({ receipt: ZReceipt, costUsd: z.number().min(0).nullable().optional() });

export async function receiveReceipt(input: { body: string; timestamp: string | null; signature: string | null; client?: Db }): Promise<{ id: string; created: boolean }> {
  if (!verifyReceiptSignature({ secret: evalSecret(), ...input })) throw new AppError("unauthenticated", "Sign the receipt with EVAL_SECRET (x-countersign-timestamp and x-countersign-signature).");
  let parsed: z.infer<typeof ZBody>;
  try {
    parsed = ZBody.parse(JSON.parse(input.body));
  } catch {
    throw new AppError("invalid", "The body is not a receipt ({ receipt }).");
  }
  const { receipt, costUsd } = parsed;
  const client = input.client ?? defaultDb();
  const digest = bodyDigest(input.body);
  const decision = decideRelease(receipt, releasePins(agentManifest()), { hash: receipt.datasetHash, episodeIds: [...new Set(receipt.rows.map((r) => r.episodeId))] });
  try {
    const run = await storeEvalRun({ receipt, decision, costUsd, receiptDigest: digest, client });
    return { id: run.id, created: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const stored = await client.evalRun.findUniqueOrThrow({ where: { receiptDigest: digest }, select: { id: true } });
    return { id: stored.id, created: false };
  }
}
