// A shop or order system upserts an order here (signed, Standard Webhooks; no session). The rules live
// in lib/orders/receive-orders.ts.
import { handleOrdersPut } from "@/lib/orders/orders-route";

export const dynamic = "force-dynamic";

export async function PUT(request: Request, context: { params: Promise<{ id: string }> }) {
  return handleOrdersPut(request, "order", (await context.params).id);
}
