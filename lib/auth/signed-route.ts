// A route a machine calls, authenticated by a signature over the raw body instead of a session (the
// intake API, the helpdesk connectors): the body read within its limit, the caller's address, one domain
// call that checks the signature and answers, and one log line with the answer's own fields – never the
// body or its signature. authedRoute (authed.ts) is the same for people.
import { readCappedBody, type TDeliveryAnswer, type TSignedDelivery } from "../intake/signed-delivery";
import { WEBHOOK_ID_HEADER } from "../intake/webhook-signature";
import { annotateContext } from "../observability/context";
import { logger } from "../observability/logger";
import { clientAddress } from "./client-address";

export function signedRoute(route: {
  /** The log line's message ("zendesk delivery"). */
  name: string;
  maxBytes: number;
  receive: (delivery: TSignedDelivery) => Promise<TDeliveryAnswer>;
  /** The answer's fields the log line carries besides its status and error. */
  logged: readonly string[];
}) {
  return async function POST(request: Request): Promise<Response> {
    const result = await route.receive({
      rawBody: await readCappedBody(request, route.maxBytes),
      headers: request.headers,
      address: clientAddress(request.headers),
    });
    const body = result.body;
    annotateContext({ ticketId: typeof body.ticketId === "string" ? body.ticketId : undefined });
    const fields = Object.fromEntries(route.logged.map((field) => [field, body[field]]));
    const webhookId = request.headers.get(WEBHOOK_ID_HEADER)?.slice(0, 200);
    logger[result.status >= 400 ? "warn" : "info"]({ status: result.status, webhookId, ...fields, error: body.error }, route.name);
    return Response.json(body, { status: result.status, headers: { "cache-control": "no-store", ...result.headers } });
  };
}
