// The control API under /_fake/ on the fake's own port, for tests and commands that run the fake in
// another process: JSON in, JSON out, one route for each method of TFakeStripe. It needs no key: the
// fake listens on loopback only.
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { FakeStripeError } from "./errors";
import type { TFakeStripe } from "./index";
import { REFUND_STATUSES } from "./store";

const ZPaymentIntent = z.object({ amount: z.number().int().positive(), currency: z.string().length(3), id: z.string().min(1).optional() });
const times = z.number().int().positive().optional();
const match = z.string().min(1).optional();
const ZFault = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("error500"), times, match }),
  z.object({ kind: z.literal("lose_answer"), times, match }),
  z.object({ kind: z.literal("slow"), ms: z.number().int().nonnegative(), times, match }),
  z.object({ kind: z.literal("fail_later"), afterMs: z.number().int().nonnegative(), reason: z.string().min(1).optional(), times }),
]);
const ZStatus = z.object({ status: z.enum(REFUND_STATUSES), failureReason: z.string().min(1).optional() });
const ZWebhookUrl = z.object({ url: z.url().nullable() });

type TRoute = (fake: TFakeStripe, body: unknown, id: string) => unknown;

const ROUTES: Record<string, TRoute> = {
  "POST /_fake/payment_intents": (fake, body) => fake.addPaymentIntent(ZPaymentIntent.parse(body)),
  "GET /_fake/refunds": (fake) => fake.refunds(),
  "POST /_fake/faults": (fake, body) => (fake.inject(ZFault.parse(body)), { ok: true }),
  "POST /_fake/release": (fake) => ({ released: fake.release() }),
  "POST /_fake/refunds/:id/status": (fake, body, id) => {
    const { status, failureReason } = ZStatus.parse(body);
    fake.setRefundStatus(id, status, failureReason);
    return fake.refunds().find((r) => r.id === id);
  },
  "GET /_fake/events": (fake) => fake.events(),
  "POST /_fake/webhook_url": (fake, body) => (fake.setWebhookUrl(ZWebhookUrl.parse(body).url), { ok: true }),
};

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

export function serveControl(fake: TFakeStripe, request: IncomingMessage, response: ServerResponse, body: string): void {
  const path = new URL(request.url ?? "/", "http://fake-stripe").pathname;
  const idMatch = /^\/_fake\/refunds\/([^/]+)\/status$/.exec(path);
  const route = ROUTES[`${request.method} ${idMatch ? "/_fake/refunds/:id/status" : path}`];
  if (!route) return json(response, 404, { error: `No control route ${request.method} ${path}` });
  try {
    const input: unknown = body === "" ? {} : JSON.parse(body);
    json(response, 200, route(fake, input, decodeURIComponent(idMatch?.[1] ?? "")));
  } catch (error) {
    const status =
      error instanceof FakeStripeError ? error.status : error instanceof z.ZodError || error instanceof SyntaxError ? 400 : 500;
    json(response, status, { error: error instanceof z.ZodError ? z.prettifyError(error) : String((error as Error).message) });
  }
}
