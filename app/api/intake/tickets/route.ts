// The helpdesk delivers tickets here. Machine callers authenticate each request by a signature of
// the raw body (Standard Webhooks; no session); the rules live in lib/intake/receive-intake.ts.
import { clientAddress } from "@/lib/auth/client-address";
import { readCappedBody, receiveIntake } from "@/lib/intake/receive-intake";
import { WEBHOOK_ID_HEADER } from "@/lib/intake/webhook-signature";
import { annotateContext } from "@/lib/observability/context";
import { logger } from "@/lib/observability/logger";

export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  const result = await receiveIntake({
    rawBody: await readCappedBody(request),
    headers: request.headers,
    address: clientAddress(request.headers),
  });
  // The answer's own fields, never the body or its signature: what the helpdesk's delivery came to.
  const body = result.body as { ticketId?: unknown; externalId?: unknown; admission?: unknown; reason?: unknown; error?: unknown };
  annotateContext({ ticketId: typeof body.ticketId === "string" ? body.ticketId : undefined });
  const webhookId = request.headers.get(WEBHOOK_ID_HEADER)?.slice(0, 200);
  logger[result.status >= 400 ? "warn" : "info"](
    { status: result.status, externalId: body.externalId, webhookId, admission: body.admission, reason: body.reason, error: body.error },
    "intake delivery",
  );
  return Response.json(result.body, { status: result.status, headers: { "cache-control": "no-store", ...result.headers } });
}
