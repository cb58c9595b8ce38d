// The helpdesk delivers a customer's follow-up messages here, signed as ticket deliveries are
// (Standard Webhooks; no session); the rules live in lib/intake/receive-intake.ts and lib/conversations/receive-follow-up.ts.
import { clientAddress } from "@/lib/auth/client-address";
import { readCappedBody, receiveFollowUpIntake } from "@/lib/intake/receive-intake";
import { storeFollowUpDelivery } from "@/lib/conversations/receive-follow-up";
import { WEBHOOK_ID_HEADER } from "@/lib/intake/webhook-signature";
import { annotateContext } from "@/lib/observability/context";
import { logger } from "@/lib/observability/logger";

export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  const result = await receiveFollowUpIntake(
    {
      rawBody: await readCappedBody(request),
      headers: request.headers,
      address: clientAddress(request.headers),
    },
    storeFollowUpDelivery,
  );
  // The answer's own fields, never the message or its signature.
  const body = result.body as { ticketId?: unknown; messageId?: unknown; status?: unknown; error?: unknown };
  annotateContext({ ticketId: typeof body.ticketId === "string" ? body.ticketId : undefined });
  const webhookId = request.headers.get(WEBHOOK_ID_HEADER)?.slice(0, 200);
  logger[result.status >= 400 ? "warn" : "info"](
    { status: result.status, messageId: body.messageId, webhookId, ticketStatus: body.status, error: body.error },
    "intake follow-up",
  );
  return Response.json(result.body, { status: result.status, headers: { "cache-control": "no-store", ...result.headers } });
}
