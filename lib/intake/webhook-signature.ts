// Standard Webhooks signatures (https://www.standardwebhooks.com), through the `standardwebhooks`
// library: `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature` (`v1,<base64
// HMAC-SHA256 of "<id>.<timestamp>.<body>">`, several space-separated). The helpdesk signs its intake
// deliveries this way, and the app signs its outbox answers this way.
//
// Rotation: a request is accepted when a signature in it matches any secret in rotation (newest
// first), so the helpdesk may sign with the old secret, the new one, or both while both are
// configured. Replay: the timestamp must be within the tolerance of the server's clock; inside the
// window a replayed delivery is answered by the ticket's idempotency on externalId.
import { createHash } from "node:crypto";
import { Webhook, WebhookVerificationError } from "standardwebhooks";

export const WEBHOOK_ID_HEADER = "webhook-id";
export const WEBHOOK_TIMESTAMP_HEADER = "webhook-timestamp";
export const WEBHOOK_SIGNATURE_HEADER = "webhook-signature";

/** What a webhook-id may look like: Standard Webhooks' own (`msg_…`) and any UUID or ULID fit. */
const WEBHOOK_ID = /^[A-Za-z0-9._:-]{1,200}$/;
const TIMESTAMP = /^\d{1,12}$/;

const WHSEC = "whsec_";

/**
 * The HMAC key a secret stands for: a `whsec_…` secret is base64 after its prefix, as Standard
 * Webhooks issues them; any other secret (INTAKE_SECRET's generated one, for instance) is its UTF-8
 * bytes, the same key the deprecated X-Countersign-Signature used.
 */
export function webhookKey(secret: string): Uint8Array {
  return secret.startsWith(WHSEC)
    ? new Uint8Array(Buffer.from(secret.slice(WHSEC.length), "base64"))
    : new Uint8Array(Buffer.from(secret, "utf8"));
}

const g = globalThis as unknown as { __countersignWebhooks?: Map<string, Webhook> };
const webhooks: Map<string, Webhook> = (g.__countersignWebhooks ??= new Map());

function webhookFor(secret: string): Webhook {
  let webhook = webhooks.get(secret);
  if (!webhook) {
    webhook = new Webhook(webhookKey(secret), { format: "raw" });
    if (webhooks.size > 16) webhooks.clear();
    webhooks.set(secret, webhook);
  }
  return webhook;
}

/** A short, one-way name for a secret: what rate limits are kept under (never the secret itself). */
export function secretFingerprint(secret: string): string {
  return createHash("sha256").update(`countersign-key\n${secret}`).digest("hex").slice(0, 16);
}

/** The three headers that sign `payload` with `secret`, as the helpdesk sends them and the outbox answers. */
export function signWebhook(input: { secret: string; id: string; timestamp: Date; payload: string }): Record<string, string> {
  return {
    [WEBHOOK_ID_HEADER]: input.id,
    [WEBHOOK_TIMESTAMP_HEADER]: String(Math.floor(input.timestamp.getTime() / 1000)),
    [WEBHOOK_SIGNATURE_HEADER]: webhookFor(input.secret).sign(input.id, input.timestamp, input.payload),
  };
}

export type TWebhookVerdict =
  | { ok: true; webhookId: string; timestamp: Date; /** The secret that matched. */ secret: string }
  | { ok: false; reason: "missing_headers" | "malformed_headers" | "timestamp_outside_window" | "no_matching_signature"; message: string };

/**
 * Whether `payload` (the body as received, well-formed UTF-8) carries a valid Standard Webhooks
 * signature by any of `secrets`, with a timestamp within `toleranceSeconds` of now.
 */
export function verifyWebhook(input: {
  secrets: readonly string[];
  headers: { get(name: string): string | null };
  payload: string;
  toleranceSeconds: number;
  now?: Date;
}): TWebhookVerdict {
  const id = input.headers.get(WEBHOOK_ID_HEADER);
  const timestamp = input.headers.get(WEBHOOK_TIMESTAMP_HEADER);
  const signature = input.headers.get(WEBHOOK_SIGNATURE_HEADER);
  if (!id || !timestamp || !signature)
    return {
      ok: false,
      reason: "missing_headers",
      message: `Sign the delivery: ${WEBHOOK_ID_HEADER}, ${WEBHOOK_TIMESTAMP_HEADER} and ${WEBHOOK_SIGNATURE_HEADER} (Standard Webhooks).`,
    };
  if (!WEBHOOK_ID.test(id) || !TIMESTAMP.test(timestamp))
    return {
      ok: false,
      reason: "malformed_headers",
      message: `${WEBHOOK_ID_HEADER} must be 1–200 letters, digits or . _ : -, and ${WEBHOOK_TIMESTAMP_HEADER} unix seconds.`,
    };
  const seconds = Number(timestamp);
  const now = (input.now ?? new Date()).getTime() / 1000;
  // Checked here with the configured tolerance (the library's own check allows 5 minutes either side
  // and reads the clock itself).
  if (Math.abs(now - seconds) > input.toleranceSeconds) {
    return {
      ok: false,
      reason: "timestamp_outside_window",
      message: `${WEBHOOK_TIMESTAMP_HEADER} must be within ${input.toleranceSeconds} seconds of the server's clock; sign each delivery when it is sent.`,
    };
  }
  const headers = { [WEBHOOK_ID_HEADER]: id, [WEBHOOK_TIMESTAMP_HEADER]: timestamp, [WEBHOOK_SIGNATURE_HEADER]: signature };
  for (const secret of input.secrets) {
    try {
      webhookFor(secret).verify(input.payload, headers, { jsonParse: false });
      return { ok: true, webhookId: id, timestamp: new Date(seconds * 1000), secret };
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      // The library's own window (5 minutes, its clock): refused whatever the secret.
      if (/timestamp/i.test(error.message))
        return {
          ok: false,
          reason: "timestamp_outside_window",
          message: `${WEBHOOK_TIMESTAMP_HEADER} is outside the Standard Webhooks window.`,
        };
    }
  }
  return {
    ok: false,
    reason: "no_matching_signature",
    message: `No ${WEBHOOK_SIGNATURE_HEADER} matches: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>" with an intake secret>.`,
  };
}
