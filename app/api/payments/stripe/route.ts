// Stripe's events (register this URL as a webhook endpoint: refund.created, refund.updated,
// refund.failed). No session: each event is verified by its Stripe-Signature against the endpoint's
// signing secret (lib/approvals/take-provider-event.ts). A forged or stale event is refused with 400
// and changes nothing; a replayed one is answered 200 (Stripe stops retrying) and changes nothing.
import { takeStripeEvent } from "@/lib/approvals/take-provider-event";

export const dynamic = "force-dynamic";

/** Larger than any refund event Stripe sends; anything bigger is not one. */
const MAX_BODY_BYTES = 256 * 1024;

export async function POST(request: Request) {
  const rawBody = await request.text();
  if (Buffer.byteLength(rawBody) > MAX_BODY_BYTES) return Response.json({ error: "too_large" }, { status: 413 });
  const answer = await takeStripeEvent({ rawBody, signature: request.headers.get("stripe-signature") });
  if (answer.status === "refused")
    return Response.json(
      { error: answer.why },
      { status: answer.why === "not_configured" ? 503 : 400, headers: { "cache-control": "no-store" } },
    );
  return Response.json(answer, { status: 200, headers: { "cache-control": "no-store" } });
}
