// The helpdesk delivers tickets here. Machine callers authenticate each request by an HMAC of the
// raw body (no session); the rules live in lib/intake/receive-intake.ts.
import { intakeSecret } from "@/lib/env";
import { readCappedBody, receiveIntake, SIGNATURE_HEADER } from "@/lib/intake/receive-intake";
import { annotateContext } from "@/lib/observability/context";
import { logger } from "@/lib/observability/logger";

export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  const result = await receiveIntake({ rawBody: await readCappedBody(request), signature: request.headers.get(SIGNATURE_HEADER), secret: intakeSecret() });
  // The answer's own fields, never the body or its signature: what the helpdesk's delivery came to.
  const body = result.body as { ticketId?: unknown; externalId?: unknown; admission?: unknown; reason?: unknown; error?: unknown };
  annotateContext({ ticketId: typeof body.ticketId === "string" ? body.ticketId : undefined });
  logger[result.status >= 400 ? "warn" : "info"]({ status: result.status, externalId: body.externalId, admission: body.admission, reason: body.reason, error: body.error }, "intake delivery");
  return Response.json(result.body, { status: result.status, headers: { "cache-control": "no-store" } });
}
