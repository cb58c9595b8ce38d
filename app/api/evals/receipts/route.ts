// Where `npm run eval` stores its receipt when this server holds the embedded database. No session:
// the request is signed with EVAL_SECRET (lib/eval/receive-receipt.ts checks it, and decides the
// release again from the receipt itself).
import { AppError } from "@/lib/contracts/app-error";
import { receiveReceipt } from "@/lib/eval/receive-receipt";
import { REQUEST_SIGNATURE_HEADER, TIMESTAMP_HEADER } from "@/lib/intake/request-signature";

export const dynamic = "force-dynamic";

/** Larger than the receipt of the shipped dataset at 100 trials; a body beyond it is refused unread. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export async function POST(request: Request) {
  const noStore = { "cache-control": "no-store" };
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES)
    return Response.json({ error: { code: "invalid", message: "The receipt is too large." } }, { status: 413, headers: noStore });
  try {
    const stored = await receiveReceipt({
      body: await request.text(),
      timestamp: request.headers.get(TIMESTAMP_HEADER),
      signature: request.headers.get(REQUEST_SIGNATURE_HEADER),
    });
    return Response.json(stored, { status: stored.created ? 201 : 200, headers: noStore });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return Response.json({ error: { code: error.code, message: error.message } }, { status: error.httpStatus, headers: noStore });
  }
}
