// The helpdesk reads approved replies here. Machine callers sign each request (no session); see
// lib/intake/request-signature.ts and the README.
import { z } from "zod";
import { intakeSecret } from "@/lib/env";
import { readOutbox } from "@/lib/approvals/read-outbox";
import { REQUEST_SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignedRequest } from "@/lib/intake/request-signature";

export const dynamic = "force-dynamic";

const ZQuery = z.object({ after: z.uuid().optional(), limit: z.coerce.number().int().min(1).max(100).optional() });

export async function GET(request: Request) {
  const url = new URL(request.url);
  const signed = verifySignedRequest({ secret: intakeSecret(), method: "GET", pathAndQuery: url.pathname + url.search, timestamp: request.headers.get(TIMESTAMP_HEADER), signature: request.headers.get(REQUEST_SIGNATURE_HEADER) });
  const headers = { "cache-control": "no-store" };
  if (!signed) return Response.json({ error: "invalid_signature", message: "Sign the request: x-countersign-timestamp (unix seconds) and x-countersign-signature: sha256=<HMAC of timestamp, method and path with query>." }, { status: 401, headers });
  const query = ZQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) return Response.json({ error: "invalid_query", fieldErrors: z.flattenError(query.error).fieldErrors }, { status: 400, headers });
  const page = await readOutbox(query.data);
  if (!page) return Response.json({ error: "unknown_cursor", message: "`after` names no outbox message." }, { status: 400, headers });
  return Response.json(page, { headers });
}
