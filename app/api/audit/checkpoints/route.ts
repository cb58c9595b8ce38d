// Signed audit checkpoints and the public key that verifies them, for an auditor or the helpdesk to
// keep a copy off this machine. Machine callers sign each request as for the outbox (no session; see
// lib/intake/request-signature.ts and docs/intake-api.md). The answer is signed too, over the request's own
// timestamp, its path and the body, so a copy of an older answer cannot pass for this one.
import { z } from "zod";
import { intakeSecret, intakeSecrets } from "@/lib/env";
import { hmacSha256Hex } from "@/lib/contracts/signatures";
import { listCheckpoints, ZCheckpointQuery } from "@/lib/audit/list-checkpoints";
import { REQUEST_SIGNATURE_HEADER, signingSecret, TIMESTAMP_HEADER } from "@/lib/intake/request-signature";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const url = new URL(request.url);
  const pathAndQuery = url.pathname + url.search;
  const timestamp = request.headers.get(TIMESTAMP_HEADER);
  // Any secret in rotation signs the request; the answer is signed with the newest.
  const signed = signingSecret({
    secrets: intakeSecrets(),
    method: "GET",
    pathAndQuery,
    timestamp,
    signature: request.headers.get(REQUEST_SIGNATURE_HEADER),
  });
  const secret = intakeSecret();
  if (!signed)
    return Response.json(
      {
        error: "invalid_signature",
        message:
          "Sign the request: x-countersign-timestamp (unix seconds) and x-countersign-signature: sha256=<HMAC of timestamp, method and path with query>.",
      },
      { status: 401, headers: { "cache-control": "no-store" } },
    );

  const answer = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    const signature = `sha256=${hmacSha256Hex(secret, `${timestamp}\n${pathAndQuery}\n${text}`)}`;
    return new Response(text, {
      status,
      headers: { "content-type": "application/json", "cache-control": "no-store", [REQUEST_SIGNATURE_HEADER]: signature },
    });
  };
  const query = ZCheckpointQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) {
    const message = query.error.issues.map((i) => `${i.path.length ? i.path.join(".") : "query"}: ${i.message}`).join("; ");
    return answer(400, { error: "invalid_query", message, ...z.flattenError(query.error) });
  }
  return answer(200, await listCheckpoints(query.data));
}
