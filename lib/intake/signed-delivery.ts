// What every signed JSON delivery from outside shares – the helpdesk's tickets (receive-intake.ts) and
// a shop's orders and customers (lib/orders/receive-orders.ts): the body read as sent (JSON by its
// Content-Type, within a size limit, strictly UTF-8), and its fields read strictly (no key twice, no
// prototype key, no unknown field), each refusal an answer naming the field.
import { z } from "zod";
import { textProblem } from "../contracts/text";
import { decodeUtf8, parseStrictJson, type TJsonProblem } from "./strict-json";

/** A string field of text from outside: well-formed, without control characters (lib/contracts/text.ts), not blank unless optional. Never trimmed. */
export function outsideText(max: number, options: { multiline?: boolean; blankAllowed?: boolean } = {}) {
  return z
    .string()
    .max(max)
    .superRefine((value, ctx) => {
      const problem = textProblem(value, options);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
      if (!options.blankAllowed && value.trim().length === 0) ctx.addIssue({ code: "custom", message: "must not be blank" });
    });
}

/** An answer to a delivery: its status, its JSON body, and any headers it carries. */
export type TDeliveryAnswer<S extends number = number> = {
  status: S;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
};

/** What the HTTP request brought: the raw body (null past the size limit), its headers, the client's address. */
export interface TSignedDelivery {
  rawBody: Buffer | null;
  headers: { get(name: string): string | null };
  address: string | null;
}

export type TRead<T> = ({ ok: true } & T) | { ok: false; response: TDeliveryAnswer<400 | 413 | 415> };

/** `application/json`, with no charset or UTF-8's. */
export function isJsonContentType(value: string | null): boolean {
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

export function invalidFields(entries: Iterable<[string, string]>): TDeliveryAnswer<400> {
  return {
    status: 400,
    body: { error: "invalid_fields", message: "Some fields are missing or invalid.", fieldErrors: fieldErrorsOf(entries) },
  };
}

export function refusedJson(problem: TJsonProblem): TDeliveryAnswer<400> {
  return problem.kind === "syntax"
    ? { status: 400, body: { error: "invalid_json", message: `The body is not valid JSON: ${problem.message}` } }
    : invalidFields([[problem.path, problem.message]]);
}

/**
 * The body as text: JSON by its Content-Type, within `maxBytes`, strictly UTF-8. Decoded before the
 * signature is checked: the signature covers the bytes, and text that is not UTF-8 has no faithful
 * string to check it on (nor to store). `what` names the body in the 415's message ("the ticket").
 */
export function readJsonBody(
  delivery: TSignedDelivery,
  options: { maxBytes: number; what: string },
): TRead<{ rawBody: Buffer; text: string }> {
  const { rawBody } = delivery;
  if (!isJsonContentType(delivery.headers.get("content-type"))) {
    return {
      ok: false,
      response: {
        status: 415,
        body: { error: "unsupported_media_type", message: `Send ${options.what} as Content-Type: application/json (UTF-8).` },
      },
    };
  }
  if (rawBody === null || rawBody.length > options.maxBytes) {
    return {
      ok: false,
      response: { status: 413, body: { error: "payload_too_large", message: `The body must be at most ${options.maxBytes} bytes.` } },
    };
  }
  const decoded = decodeUtf8(rawBody);
  return decoded.ok ? { ok: true, rawBody, text: decoded.text } : { ok: false, response: refusedJson(decoded.problem) };
}

/** The value the text holds: strict JSON (no key twice, no prototype key), then `schema`'s fields (an unknown one refused by a strict schema). */
export function parseStrictFields<S extends z.ZodType>(schema: S, text: string): TRead<{ value: z.infer<S> }> {
  const json = parseStrictJson(text);
  if (!json.ok) return { ok: false, response: refusedJson(json.problem) };
  const parsed = schema.safeParse(json.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    response: invalidFields(
      parsed.error.issues.flatMap((issue): [string, string][] =>
        issue.code === "unrecognized_keys"
          ? issue.keys.map((key): [string, string] => [[...issue.path, key].join("."), "is not a known field"])
          : [[issue.path.join("."), issue.message]],
      ),
    ),
  };
}

/** Reads a request body, giving up (null) past `max` bytes without buffering the rest. */
export async function readCappedBody(request: Request, max: number): Promise<Buffer | null> {
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
