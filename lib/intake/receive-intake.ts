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
import { textProblem } from "../contracts/text";
import { env, intakeSecrets } from "../env";
import { insertTicket } from "./create-ticket";
import { constantTimeEqual, hmacSha256Hex } from "../contracts/signatures";
import { configuredLimiter, retryAfterHeader, type THelpdeskLimiter } from "./rate-limits";
import { decodeUtf8, parseStrictJson, type TJsonProblem } from "./strict-json";
import { secretFingerprint, verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from "./webhook-signature";

export const MAX_INTAKE_BYTES = 64 * 1024;
/** The deprecated body signature (sha256=<hex HMAC of the raw body>), accepted until INTAKE_LEGACY_SIGNATURE_UNTIL. */
export const SIGNATURE_HEADER = "x-countersign-signature";

/** A string field of text from outside: well-formed, without control characters (lib/contracts/text.ts), not blank unless optional. Never trimmed. */
function text(max: number, options: { multiline?: boolean; blankAllowed?: boolean } = {}) {
  return z
    .string()
    .max(max)
    .superRefine((value, ctx) => {
      const problem = textProblem(value, options);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
      if (!options.blankAllowed && value.trim().length === 0) ctx.addIssue({ code: "custom", message: "must not be blank" });
    });
}

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

export type TIntakeResponse = {
  status: 200 | 201 | 400 | 401 | 409 | 413 | 415 | 429;
  body: Record<string, unknown>;
  /** Headers the answer carries: Retry-After on a 429, Sunset on a delivery signed the deprecated way. */
  headers?: Record<string, string>;
};

/** What the HTTP request brought: the raw body (null past the size limit), its headers, the client's address. */
export interface TIntakeDelivery {
  rawBody: Buffer | null;
  headers: { get(name: string): string | null };
  address: string | null;
}

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

/** `application/json`, with no charset or UTF-8's. */
function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const [type, ...parameters] = value.split(";").map((part) => part.trim().toLowerCase());
  if (type !== "application/json") return false;
  return parameters.every((p) => !p.startsWith("charset=") || /^charset="?utf-8"?$/.test(p));
}

/** Field errors keyed by field: a null-prototype object, so that a field named `__proto__` is a field like any other. */
function fieldErrorsOf(entries: Iterable<[string, string]>): Record<string, string[]> {
  const out = Object.create(null) as Record<string, string[]>;
  for (const [field, message] of entries) (out[field || "(body)"] ??= []).push(message);
  return out;
}

function invalidFields(entries: Iterable<[string, string]>): TIntakeResponse {
  return {
    status: 400,
    body: { error: "invalid_fields", message: "Some fields are missing or invalid.", fieldErrors: fieldErrorsOf(entries) },
  };
}

function refusedJson(problem: TJsonProblem): TIntakeResponse {
  return problem.kind === "syntax"
    ? { status: 400, body: { error: "invalid_json", message: `The body is not valid JSON: ${problem.message}` } }
    : invalidFields([[problem.path, problem.message]]);
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
  const body = readBody(delivery);
  if (!body.ok) return body.response;
  const signed = checkSignature(delivery, body.rawBody, body.text, config);
  if (!signed.ok) return signed.response;
  const answer = (response: TIntakeResponse): TIntakeResponse =>
    signed.headers ? { ...response, headers: { ...signed.headers, ...response.headers } } : response;

  const limited = config.limiter && (await overRateLimit(config.limiter, signed.secret, delivery.address));
  if (limited) return answer(limited);
  const parsed = parseTicket(body.text);
  if (!parsed.ok) return answer(parsed.response);
  return answer(await storeTicket(parsed.ticket, signed.delivery));
}

type TRead<T> = ({ ok: true } & T) | { ok: false; response: TIntakeResponse };

/**
 * The body as text: JSON by its Content-Type, within the size limit, strictly UTF-8. Decoded before
 * the signature is checked: the signature covers the bytes, and text that is not UTF-8 has no
 * faithful string to check it on (nor to store).
 */
function readBody(delivery: TIntakeDelivery): TRead<{ rawBody: Buffer; text: string }> {
  const { rawBody } = delivery;
  if (!isJsonContentType(delivery.headers.get("content-type"))) {
    return {
      ok: false,
      response: {
        status: 415,
        body: { error: "unsupported_media_type", message: "Send the ticket as Content-Type: application/json (UTF-8)." },
      },
    };
  }
  if (rawBody === null || rawBody.length > MAX_INTAKE_BYTES) {
    return {
      ok: false,
      response: { status: 413, body: { error: "payload_too_large", message: `The body must be at most ${MAX_INTAKE_BYTES} bytes.` } },
    };
  }
  const decoded = decodeUtf8(rawBody);
  return decoded.ok ? { ok: true, rawBody, text: decoded.text } : { ok: false, response: refusedJson(decoded.problem) };
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

/** The ticket the text holds: strict JSON (no key twice, no prototype key), then its fields. */
function parseTicket(text: string): TRead<{ ticket: TIntakeTicket }> {
  const json = parseStrictJson(text);
  if (!json.ok) return { ok: false, response: refusedJson(json.problem) };
  const parsed = ZIntakeTicket.safeParse(json.value);
  if (parsed.success) return { ok: true, ticket: parsed.data };
  return {
    ok: false,
    response: invalidFields(
      parsed.error.issues.flatMap((issue): [string, string][] =>
        issue.code === "unrecognized_keys"
          ? issue.keys.map((key): [string, string] => [key, "is not a known field"])
          : [[issue.path.join("."), issue.message]],
      ),
    ),
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

/** Reads a request body, giving up (null) past `max` bytes without buffering the rest. */
export async function readCappedBody(request: Request, max = MAX_INTAKE_BYTES): Promise<Buffer | null> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) return null;
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
