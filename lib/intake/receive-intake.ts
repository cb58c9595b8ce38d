// The intake API's rules (POST /api/intake/tickets), independent of HTTP plumbing. In order:
// 413 too large → 401 bad signature → 400 malformed JSON or fields → 200/409 for a known externalId
// → 201 created. Nothing is written unless the answer is 201.
import { z } from "zod";
import { db, isUniqueViolation } from "../db";
import { canonicalJson, sha256Hex } from "../contracts/canonical";
import { insertTicket } from "./create-ticket";
import { constantTimeEqual, hmacSha256Hex } from "../contracts/signatures";

export const MAX_INTAKE_BYTES = 64 * 1024;
export const SIGNATURE_HEADER = "x-countersign-signature";

export const ZIntakeTicket = z.strictObject({
  externalId: z.string().min(1).max(200).regex(/^[A-Za-z0-9._:-]+$/, "may contain letters, digits and . _ : - only"),
  subject: z.string().trim().min(1).max(300),
  body: z.string().trim().min(1).max(20_000),
  customerEmail: z.email(),
  orderId: z.string().trim().min(1).max(64).nullish(),
  route: z.enum(["guarded_agent", "human_review_now"]),
  bundleVersion: z.string().min(1).max(100),
  /** HMAC-SHA256 (hex) over externalId, route and bundleVersion with the bundle's key. Absent or
   * wrong, the ticket is accepted but bypasses the agent (unverified_route). */
  routeSignature: z.string().max(128).nullish(),
});
export type TIntakeTicket = z.infer<typeof ZIntakeTicket>;

export type TIntakeResponse = { status: 200 | 201 | 400 | 401 | 409 | 413; body: Record<string, unknown> };

/** `sha256=<hex>` of the raw body, keyed with the intake secret. */
export function signIntakeBody(rawBody: string | Buffer, secret: string): string {
  return `sha256=${hmacSha256Hex(secret, rawBody)}`;
}

function signatureValid(rawBody: Buffer, header: string | null, secret: string): boolean {
  return header !== null && constantTimeEqual(header.trim(), signIntakeBody(rawBody, secret));
}

function resultBody(ticket: { id: string; number: number; externalId: string | null; admission: string; admissionReason: string | null; status: string }) {
  return { ticketId: ticket.id, number: ticket.number, externalId: ticket.externalId, admission: ticket.admission, reason: ticket.admissionReason, status: ticket.status };
}

export async function receiveIntake(input: { rawBody: Buffer | null; signature: string | null; secret: string }): Promise<TIntakeResponse> {
  const { rawBody, signature, secret } = input;
  if (rawBody === null || rawBody.length > MAX_INTAKE_BYTES) {
    return { status: 413, body: { error: "payload_too_large", message: `The body must be at most ${MAX_INTAKE_BYTES} bytes.` } };
  }
  if (!signatureValid(rawBody, signature, secret)) {
    return { status: 401, body: { error: "invalid_signature", message: `Sign the raw body: ${SIGNATURE_HEADER}: sha256=<hex HMAC-SHA256 with the intake secret>.` } };
  }
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString("utf8"));
  } catch (error) {
    return { status: 400, body: { error: "invalid_json", message: `The body is not valid JSON: ${(error as Error).message}` } };
  }
  const parsed = ZIntakeTicket.safeParse(json);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const keys = issue.code === "unrecognized_keys" ? issue.keys : [issue.path.join(".") || "(body)"];
      for (const key of keys) (fieldErrors[key] ??= []).push(issue.code === "unrecognized_keys" ? "is not a known field" : issue.message);
    }
    return { status: 400, body: { error: "invalid_fields", message: "Some fields are missing or invalid.", fieldErrors } };
  }
  const ticket = parsed.data;
  const payloadHash = sha256Hex(canonicalJson(ticket));

  const known = async (): Promise<TIntakeResponse | null> => {
    const existing = await db().ticket.findUnique({ where: { externalId: ticket.externalId } });
    if (!existing) return null;
    if (existing.payloadHash !== payloadHash) {
      return { status: 409, body: { error: "idempotency_mismatch", message: `externalId ${ticket.externalId} was already delivered with a different body; nothing was changed.`, ticketId: existing.id } };
    }
    return { status: 200, body: resultBody(existing) };
  };

  // A new ticket is the common case: insert straight away (one statement, the audit event with it),
  // and answer a repeat from the unique externalId it collides with.
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
      },
      { type: "api", id: "intake" },
    );
    return { status: 201, body: resultBody(created) };
  } catch (error) {
    // A repeat, or a concurrent delivery of the same externalId that won the insert.
    if (isUniqueViolation(error)) {
      const answer = await known();
      if (answer) return answer;
    }
    throw error;
  }
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
