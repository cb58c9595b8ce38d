// The helpdesk reads approved replies here. Machine callers sign each request (no session; see
// lib/intake/request-signature.ts and docs/intake-api.md) with any intake secret in rotation, within rate
// limits per key and per address. Every answer to a signed request is itself signed, the Standard
// Webhooks way, with the newest secret: webhook-id is the request's id (the caller's X-Request-Id
// when it sent a well-formed one), so a copy of another answer cannot pass for this one.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { clientAddress } from "@/lib/auth/client-address";
import { intakeSecret, intakeSecrets } from "@/lib/env";
import { readOutbox } from "@/lib/approvals/read-outbox";
import { configuredLimiter, retryAfterHeader } from "@/lib/intake/rate-limits";
import { REQUEST_SIGNATURE_HEADER, signingSecret, TIMESTAMP_HEADER } from "@/lib/intake/request-signature";
import { secretFingerprint, signWebhook } from "@/lib/intake/webhook-signature";
import { currentContext } from "@/lib/observability/context";

export const dynamic = "force-dynamic";

const ZQuery = z.object({ after: z.uuid().optional(), limit: z.coerce.number().int().min(1).max(100).optional() });

function signedAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  const signature = signWebhook({
    secret: intakeSecret(),
    id: currentContext().requestId ?? randomUUID(),
    timestamp: new Date(),
    payload: text,
  });
  return new Response(text, {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers, ...signature },
  });
}

export async function GET(request: Request) {
  const url = new URL(request.url);
  const secret = signingSecret({
    secrets: intakeSecrets(),
    method: "GET",
    pathAndQuery: url.pathname + url.search,
    timestamp: request.headers.get(TIMESTAMP_HEADER),
    signature: request.headers.get(REQUEST_SIGNATURE_HEADER),
  });
  if (!secret)
    return Response.json(
      {
        error: "invalid_signature",
        message:
          "Sign the request: x-countersign-timestamp (unix seconds) and x-countersign-signature: sha256=<HMAC of timestamp, method and path with query>.",
      },
      { status: 401, headers: { "cache-control": "no-store" } },
    );
  const limited = await configuredLimiter("outbox").consume({ keyId: secretFingerprint(secret), address: clientAddress(request.headers) });
  if (!limited.ok)
    return signedAnswer(
      429,
      {
        error: "rate_limited",
        message: `Too many outbox reads ${limited.limit === "key" ? "signed with this key" : "from this address"}; retry after ${limited.retryAfterSeconds} s.`,
      },
      retryAfterHeader(limited),
    );
  const query = ZQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) return signedAnswer(400, { error: "invalid_query", fieldErrors: z.flattenError(query.error).fieldErrors });
  const page = await readOutbox(query.data);
  if (!page) return signedAnswer(400, { error: "unknown_cursor", message: "`after` names no outbox message." });
  return signedAnswer(200, page);
}
