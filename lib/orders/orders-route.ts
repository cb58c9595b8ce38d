// The orders API's two routes share one handler: the request's body, headers and address handed to
// the rules (receive-orders.ts), the answer logged by its own fields, never the body or its signature.
import { readCappedBody } from "../intake/signed-delivery";
import { WEBHOOK_ID_HEADER } from "../intake/webhook-signature";
import { logger } from "../observability/logger";
import { MAX_ORDER_BYTES, receiveOrders } from "./receive-orders";

export async function handleOrdersPut(request: Request, resource: "order" | "customer", id: string): Promise<Response> {
  const result = await receiveOrders({
    resource,
    id,
    rawBody: await readCappedBody(request, MAX_ORDER_BYTES),
    headers: request.headers,
    // No rate limit keyed on it: the orders API is for the team's own systems, each delivery signed.
    address: null,
  });
  const webhookId = request.headers.get(WEBHOOK_ID_HEADER)?.slice(0, 200);
  logger[result.status >= 400 ? "warn" : "info"](
    { status: result.status, resource, id: id.slice(0, 64), webhookId, error: result.body.error },
    "orders delivery",
  );
  return Response.json(result.body, { status: result.status, headers: { "cache-control": "no-store", ...result.headers } });
}
