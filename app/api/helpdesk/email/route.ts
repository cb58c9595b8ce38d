// An email service posts received messages here as JSON, signed like the intake API (Standard Webhooks; no session). The rules live in lib/delivery/receive-helpdesk.ts.
import { clientAddress } from "@/lib/auth/client-address";
import { MAX_HELPDESK_BYTES, receiveInboundEmail } from "@/lib/delivery/receive-helpdesk";
import { readCappedBody } from "@/lib/intake/receive-intake";
import { logger } from "@/lib/observability/logger";

export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  const result = await receiveInboundEmail({
    rawBody: await readCappedBody(request, MAX_HELPDESK_BYTES),
    headers: request.headers,
    address: clientAddress(request.headers),
  });
  const body = result.body as { externalId?: unknown; error?: unknown };
  logger[result.status >= 400 ? "warn" : "info"](
    { status: result.status, externalId: body.externalId, error: body.error },
    "email delivery",
  );
  return Response.json(result.body, { status: result.status, headers: { "cache-control": "no-store", ...result.headers } });
}
