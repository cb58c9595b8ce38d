// The intake API's rules (POST /api/intake/tickets), independent of HTTP plumbing. In order:
// 415 not JSON → 413 too large → 400 not UTF-8 → 401 bad signature → 429 over a rate limit → 400
// malformed JSON or fields → 200/409 for a known externalId → 201 created. Nothing is written unless
// the answer is 201 (a 429's and a 2xx's request is counted by the rate limiter, nothing else).
//
// The body is read as sent: no key given twice, no prototype key, UTF-8 only, no control characters
// in text, and the subject and body stored exactly as received (validation looks at a trimmed copy
// for blankness; nothing trimmed is stored).
import { z } from "zod";
import { db, isUniqueViolation } from "../db";
import { canonicalJson, sha256Hex } from "../contracts/canonical";
import { env, intakeSecrets } from "../env";
import { insertTicket } from "./create-ticket";
import { constantTimeEqual, hmacSha256Hex } from "../contracts/signatures";
import { configuredLimiter, retryAfterHeader, type THelpdeskLimiter } from "./rate-limits";
import { outsideText as text, parseStrictFields, readJsonBody, type TSignedDelivery } from "./signed-delivery";
import { secretFingerprint, verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from "./webhook-signature";

export const MAX_INTAKE_BYTES = 64 * 1024;
/** The deprecated body signature (sha256=<hex HMAC of the raw body>), accepted until INTAKE_LEGACY_SIGNATURE_UNTIL. */
export const SIGNATURE_HEADER = "x-countersign-signature";

export const ZIntakeTicket = z.strictObject({
  externalId: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9._:-]+$/, "may contain letters, digits and . _ : - only"),
  subject: text(300),
  body: text(20_000, { multiline: true }),
  customerEmail: z.email().max(254),
  orderId: z
    .string()
    .max(64)
    .regex(/^\S(?:.*\S)?$/, "must not be blank or begin or end with spaces")
    .pipe(text(64))
    .nullish(),
  route: z.enum(["guarded_agent", "human_review_now"]),
  bundleVersion: text(100),
  /** HMAC-SHA256 (hex) over externalId, route and bundleVersion with the bundle's key. Absent or
   * wrong, the ticket is accepted but bypasses the agent (unverified_route). */
  routeSignature: text(128, { blankAllowed: true }).nullish(),
});
export type TIntakeTicket = z.infer<typeof ZIntakeTicket>;

/** A follow-up: the ticket by our id (`ticketId`, the thread id a ticket's delivery answered with) or by
 * the helpdesk's `externalId`, exactly one of them; the helpdesk's own message id; the message. */
export const ZIntakeMessage = z
  .strictObject({
    ticketId: z.uuid().optional(),
    externalId: ZIntakeTicket.shape.externalId.optional(),
    messageId: ZIntakeTicket.shape.externalId,
    body: text(20_000, { multiline: true }),
    orderId: ZIntakeTicket.shape.orderId,
  })
  .refine((m) => (m.ticketId === undefined) !== (m.externalId === undefined), {
    path: ["ticketId"],
    message: "name the ticket by ticketId or by externalId, one of them",
  });
export type TIntakeMessage = z.infer<typeof ZIntakeMessage>;

/** The helpdesk's request to erase a customer (lib/privacy/erase-customer.ts): the customer by our id. */
export const ZErasureRequest = z.strictObject({ customerId: text(64) });
export type TErasureRequest = z.infer<typeof ZErasureRequest>;

export type TIntakeResponse = {
  status: 200 | 201 | 400 | 401 | 404 | 409 | 413 | 415 | 429;
  body: Record<string, unknown>;
  /** Headers the answer carries: Retry-After on a 429, Sunset on a delivery signed the deprecated way. */
  headers?: Record<string, string>;
};

/** What the HTTP request brought: the raw body (null past the size limit), its headers, the client's address. */
export type TIntakeDelivery = TSignedDelivery;

export interface TIntakeConfig {
  /** The secrets in rotation, newest first. */
  secrets: readonly string[];
  toleranceSeconds: number;
  /** Until when the deprecated X-Countersign-Signature is accepted; null: refused. */
  legacyUntil: Date | null;
  /** null: no rate limits. */
  limiter: THelpdeskLimiter | null;
  now?: Date;
}

/** The configuration the settings give (INTAKE_SECRETS, INTAKE_SIGNATURE_TOLERANCE_SECONDS, …). */
export function configuredIntake(): TIntakeConfig {
  const e = env();
  return {
    secrets: intakeSecrets(),
    toleranceSeconds: e.INTAKE_SIGNATURE_TOLERANCE_SECONDS,
    legacyUntil: e.INTAKE_LEGACY_SIGNATURE_UNTIL,
    limiter: configuredLimiter("intake"),
  };
}

/** `sha256=<hex>` of the raw body, keyed with an intake secret: the deprecated X-Countersign-Signature. */
export function signIntakeBody(rawBody: string | Buffer, secret: string): string {
  return `sha256=${hmacSha256Hex(secret, rawBody)}`;
}

function resultBody(ticket: {
  id: string;
  number: number;
  externalId: string | null;
  admission: string;
  admissionReason: string | null;
  status: string;
}) {
  return {
    ticketId: ticket.id,
    number: ticket.number,
    externalId: ticket.externalId,
    admission: ticket.admission,
    reason: ticket.admissionReason,
    status: ticket.status,
  };
}

type TSigned =
  | {
      ok: true;
      secret: string;
      delivery: { webhookId: string | null; signature: "standard_webhooks" | "legacy" };
      headers?: Record<string, string>;
    }
  | { ok: false; response: TIntakeResponse };

function checkSignature(delivery: TIntakeDelivery, rawBody: Buffer, payload: string, config: TIntakeConfig): TSigned {
  const now = config.now ?? new Date();
  const refuse = (message: string): TSigned => ({ ok: false, response: { status: 401, body: { error: "invalid_signature", message } } });
  // Standard Webhooks whenever its signature header is present: never a fallback to the old one.
  if (delivery.headers.get(WEBHOOK_SIGNATURE_HEADER) !== null || delivery.headers.get(SIGNATURE_HEADER) === null) {
    const verdict = verifyWebhook({
      secrets: config.secrets,
      headers: delivery.headers,
      payload,
      toleranceSeconds: config.toleranceSeconds,
      now,
    });
    return verdict.ok
      ? { ok: true, secret: verdict.secret, delivery: { webhookId: verdict.webhookId, signature: "standard_webhooks" } }
      : refuse(verdict.message);
  }
  if (!config.legacyUntil || now >= config.legacyUntil) {
    return refuse(
      `${SIGNATURE_HEADER} is no longer accepted${config.legacyUntil ? ` (since ${config.legacyUntil.toISOString().slice(0, 10)})` : ""}: sign with webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks).`,
    );
  }
  const header = delivery.headers.get(SIGNATURE_HEADER)!.trim();
  const secret = config.secrets.find((s) => constantTimeEqual(header, signIntakeBody(rawBody, s)));
  if (!secret)
    return refuse(
      `Sign the delivery with webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks); ${SIGNATURE_HEADER} (deprecated) must be sha256=<hex HMAC-SHA256 of the raw body>.`,
    );
  return { ok: true, secret, delivery: { webhookId: null, signature: "legacy" }, headers: { sunset: config.legacyUntil.toUTCString() } };
}

export async function receiveIntake(delivery: TIntakeDelivery, config: TIntakeConfig = configuredIntake()): Promise<TIntakeResponse> {
  return receiveSigned(delivery, config, "the ticket", async (text, signed) => {
    const parsed = parseStrictFields(ZIntakeTicket, text);
    return parsed.ok ? storeTicket(parsed.value, signed) : parsed.response;
  });
}

/**
 * A follow-up message on a ticket (POST /api/intake/messages): the same rules as a ticket's delivery
 * up to the fields (size, UTF-8, signature, rate limits), then 404 for an unknown ticket, 201 for a new
 * message, 200 for a repeated message id with the same body, 409 for one with another body. `store`
 * (lib/conversations/receive-follow-up.ts, storeFollowUpDelivery) writes it and gives the answer.
 */
export async function receiveFollowUpIntake(
  delivery: TIntakeDelivery,
  store: (message: TIntakeMessage) => Promise<TIntakeResponse>,
  config: TIntakeConfig = configuredIntake(),
): Promise<TIntakeResponse> {
  return receiveSigned(delivery, config, "the message", async (text) => {
    const parsed = parseStrictFields(ZIntakeMessage, text);
    return parsed.ok ? store(parsed.value) : parsed.response;
  });
}

/**
 * The helpdesk asks to erase a customer: signed as every delivery is, then `erase` (lib/privacy,
 * storeErasureRequest) answers: 200 erased (or erased before: a replay changes nothing), 404 no such
 * customer, 409 refused with its reason code.
 */
export async function receiveErasureIntake(
  delivery: TIntakeDelivery,
  erase: (request: TErasureRequest) => Promise<TIntakeResponse>,
  config: TIntakeConfig = configuredIntake(),
): Promise<TIntakeResponse> {
  return receiveSigned(delivery, config, "the erasure request", async (text) => {
    const parsed = parseStrictFields(ZErasureRequest, text);
    return parsed.ok ? erase(parsed.value) : parsed.response;
  });
}

/** Body, signature and rate limits, as every intake delivery is checked; then `handle` with the body's text. */
async function receiveSigned(
  delivery: TIntakeDelivery,
  config: TIntakeConfig,
  what: string,
  handle: (text: string, signed: Extract<TSigned, { ok: true }>["delivery"]) => Promise<TIntakeResponse>,
): Promise<TIntakeResponse> {
  const body = readJsonBody(delivery, { maxBytes: MAX_INTAKE_BYTES, what });
  if (!body.ok) return body.response;
  const signed = checkSignature(delivery, body.rawBody, body.text, config);
  if (!signed.ok) return signed.response;
  const answer = (response: TIntakeResponse): TIntakeResponse =>
    signed.headers ? { ...response, headers: { ...signed.headers, ...response.headers } } : response;

  const limited = config.limiter && (await overRateLimit(config.limiter, signed.secret, delivery.address));
  if (limited) return answer(limited);
  return answer(await handle(body.text, signed.delivery));
}

/** A 429 when the signing key or the address has used its budget; null within it (and counted). */
async function overRateLimit(limiter: THelpdeskLimiter, secret: string, address: string | null): Promise<TIntakeResponse | null> {
  const verdict = await limiter.consume({ keyId: secretFingerprint(secret), address });
  if (verdict.ok) return null;
  return {
    status: 429,
    body: {
      error: "rate_limited",
      message: `Too many deliveries ${verdict.limit === "key" ? "signed with this key" : "from this address"}; retry after ${verdict.retryAfterSeconds} s.`,
    },
    headers: retryAfterHeader(verdict),
  };
}

/**
 * A new ticket is the common case: insert straight away (one statement, the audit event with it),
 * and answer a repeat from the unique externalId it collides with.
 */
async function storeTicket(ticket: TIntakeTicket, delivery: Extract<TSigned, { ok: true }>["delivery"]): Promise<TIntakeResponse> {
  const payloadHash = sha256Hex(canonicalJson(ticket));
  try {
    const created = await insertTicket(
      {
        subject: ticket.subject,
        body: ticket.body,
        customerEmail: ticket.customerEmail,
        orderRef: ticket.orderId ?? null,
        source: "api",
        externalId: ticket.externalId,
        payloadHash,
        routed: { route: ticket.route, bundleVersion: ticket.bundleVersion, signature: ticket.routeSignature ?? null },
        delivery,
      },
      { type: "api", id: "intake" },
    );
    return { status: 201, body: resultBody(created) };
  } catch (error) {
    // A repeat, or a concurrent delivery of the same externalId that won the insert.
    if (isUniqueViolation(error)) {
      const repeat = await answerRepeat(ticket.externalId, payloadHash);
      if (repeat) return repeat;
    }
    throw error;
  }
}

/** A delivery of a known externalId: 200 with its ticket for the same body, 409 for another. */
async function answerRepeat(externalId: string, payloadHash: string): Promise<TIntakeResponse | null> {
  const existing = await db().ticket.findUnique({ where: { externalId } });
  if (!existing) return null;
  if (existing.payloadHash !== payloadHash) {
    return {
      status: 409,
      body: {
        error: "idempotency_mismatch",
        message: `externalId ${externalId} was already delivered with a different body; nothing was changed.`,
        ticketId: existing.id,
      },
    };
  }
  return { status: 200, body: resultBody(existing) };
}
