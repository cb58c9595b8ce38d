// The part of Stripe's v1 HTTP API the fake answers: the key check, the refunds endpoints, the
// idempotency layer, and the injected faults, which act where a network or Stripe itself would fail.
import type { IncomingMessage, ServerResponse } from "node:http";
import { FakeStripeError } from "./errors";
import type { FaultQueue } from "./faults";
import { parseForm, type TFormObject } from "./form";
import type { IdempotencyKeys, TAnswer } from "./idempotency";
import { stripeId, type FakeStripeStore, type TRefundChange } from "./store";

export interface TApiParts {
  apiKey: string;
  apiVersion: string;
  store: FakeStripeStore;
  faults: FaultQueue;
  keys: IdempotencyKeys;
}

interface TCall {
  method: string;
  path: string;
  query: URLSearchParams;
  params: TFormObject;
  request: NonNullable<TRefundChange["request"]>;
}

const header = (request: IncomingMessage, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export async function serveApi(parts: TApiParts, request: IncomingMessage, response: ServerResponse, body: string): Promise<void> {
  const url = new URL(request.url ?? "/", "http://fake-stripe");
  const call: TCall = {
    method: request.method ?? "GET",
    path: url.pathname,
    query: url.searchParams,
    params: request.method === "POST" ? parseForm(body) : {},
    request: { id: stripeId("req"), idempotencyKey: request.method === "POST" ? (header(request, "idempotency-key") ?? null) : null },
  };
  const version = header(request, "stripe-version") ?? parts.apiVersion;
  const refused = keyRefusal(parts.apiKey, header(request, "authorization"));
  if (refused) return send(response, { status: 401, body: refused.body(), requestId: call.request.id }, version);
  const fault = parts.faults.takeForRequest(request.url ?? "/");
  if (fault?.kind === "error500") {
    // In front of the endpoint (a failing load balancer): nothing made, nothing kept for the key.
    const error = new FakeStripeError(500, "api_error", "An unknown error occurred while processing your request.");
    return send(response, { status: 500, body: error.body(), requestId: call.request.id }, version);
  }
  const { answer, replayed } = answerWithKey(parts, call);
  if (fault?.kind === "lose_answer") {
    // The work is done; the answer never reaches the caller.
    response.socket?.destroy();
    return;
  }
  if (fault?.kind === "slow") await parts.faults.hold(fault.ms);
  send(response, answer, version, call.request.idempotencyKey, replayed);
}

function answerWithKey(parts: TApiParts, call: TCall): { answer: TAnswer; replayed: boolean } {
  const key = call.request.idempotencyKey;
  const endpoint = `${call.method} ${call.path}`;
  try {
    const kept = key ? parts.keys.replay(key, endpoint, call.params) : undefined;
    if (kept) return { answer: kept, replayed: true };
  } catch (error) {
    return { answer: errorAnswer(error, call.request.id), replayed: false };
  }
  let answer: TAnswer;
  let keep = true;
  try {
    answer = { status: 200, body: route(parts.store, call), requestId: call.request.id };
  } catch (error) {
    answer = errorAnswer(error, call.request.id);
    keep = error instanceof FakeStripeError && error.kept;
  }
  if (key && keep) parts.keys.keep(key, endpoint, call.params, answer);
  return { answer, replayed: false };
}

function route(store: FakeStripeStore, call: TCall): unknown {
  const { method, path } = call;
  if (path === "/v1/refunds" && method === "POST") return store.createRefund(call.params, call.request);
  if (path === "/v1/refunds" && method === "GET") return store.list(call.query);
  const one = /^\/v1\/refunds\/([^/]+)$/.exec(path);
  if (one?.[1] && method === "GET") return store.retrieve(decodeURIComponent(one[1]));
  const cancel = /^\/v1\/refunds\/([^/]+)\/cancel$/.exec(path);
  if (cancel?.[1] && method === "POST") return store.cancel(decodeURIComponent(cancel[1]), call.request);
  throw new FakeStripeError(
    404,
    "invalid_request_error",
    `Unrecognized request URL (${method}: ${path}). This fake answers only the refunds endpoints.`,
    undefined,
    undefined,
    false,
  );
}

function errorAnswer(error: unknown, requestId: string): TAnswer {
  if (error instanceof FakeStripeError) return { status: error.status, body: error.body(), requestId };
  throw error;
}

/** Stripe takes the secret key as a Bearer token or as the user of Basic auth (`curl -u sk_…:`). */
function keyRefusal(apiKey: string, authorization: string | undefined): FakeStripeError | undefined {
  const [scheme = "", value = ""] = (authorization ?? "").split(" ");
  const given = /^basic$/i.test(scheme)
    ? (Buffer.from(value, "base64").toString("utf8").split(":")[0] ?? "")
    : /^bearer$/i.test(scheme)
      ? value
      : "";
  if (given === apiKey) return undefined;
  const message = given
    ? `Invalid API Key provided: ${given.slice(0, 8)}${"*".repeat(Math.max(0, given.length - 12))}${given.slice(-4)}`
    : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').";
  return new FakeStripeError(401, "invalid_request_error", message, undefined, undefined, false);
}

function send(response: ServerResponse, answer: TAnswer, version: string, idempotencyKey?: string | null, replayed = false): void {
  const body = JSON.stringify(answer.body, null, 2);
  response.writeHead(answer.status, {
    "Content-Type": "application/json",
    "Request-Id": replayed ? stripeId("req") : answer.requestId,
    "Stripe-Version": version,
    ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}),
    ...(replayed ? { "Idempotent-Replayed": "true", "Original-Request": answer.requestId } : {}),
  });
  response.end(body);
}
