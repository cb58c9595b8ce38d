// The orders API's rules (PUT /api/orders/{id}, PUT /api/customers/{id}): a shop, an order system or
// an import script upserts the orders and customers tickets name, signed the Standard Webhooks way as
// the helpdesk signs its tickets (lib/intake/webhook-signature.ts), its body read as strictly
// (lib/intake/signed-delivery.ts). In order: 415 not JSON → 413 too large → 400 not UTF-8 → 401 bad
// or missing signature, or a timestamp outside the window → 400 bad id, malformed JSON or fields →
// 200 with the first answer for a webhook-id delivered before with the same body, 409 with another →
// 400/409 for what the tables refuse → 201 created, 200 replaced. Nothing is written unless the answer
// is 200 or 201, and then the change, its audit event and the delivery's answer in one transaction.
//
// Upsert: a delivery replaces the order's (or customer's) columns with those sent. Refunds made
// elsewhere are added, each once by its id, and never removed: a delivery that leaves one out leaves it
// counted.
import { z } from "zod";
import { canonicalJson, sha256Hex } from "../contracts/canonical";
import { db, isUniqueViolation, type DbTx } from "../db";
import { env } from "../env";
import { recordAuditEvent } from "../audit/record-audit-event";
import {
  invalidFields,
  outsideText,
  parseStrictFields,
  readJsonBody,
  type TDeliveryAnswer,
  type TSignedDelivery,
} from "../intake/signed-delivery";
import { verifyWebhook } from "../intake/webhook-signature";
import {
  insertOrderDelivery,
  readOrderDelivery,
  recordExternalRefunds,
  upsertCustomer,
  upsertOrder,
  type TOrderDeliveryRow,
} from "./order-store";

export const MAX_ORDER_BYTES = 64 * 1024;

/** The error codes the orders API answers with, beside the delivery reader's (unsupported_media_type, payload_too_large, invalid_json, invalid_fields). */
export const ORDERS_API_ERRORS = {
  orders_api_closed: "No ORDERS_SECRETS are set: the orders API accepts nothing.",
  invalid_signature: "The delivery is not signed with an orders secret, or its timestamp is outside the window.",
  idempotency_mismatch: "The webhook-id was delivered before with another body; nothing was changed.",
  unknown_customer: "The order names a customer the app does not know: PUT /api/customers/{id} first.",
  email_taken: "Another customer has this email.",
  refund_conflict: "A refund id was reported before with another order or amount; nothing was changed.",
} as const;
export type TOrdersApiError = keyof typeof ORDERS_API_ERRORS;

const ID = /^[A-Za-z0-9._:-]{1,64}$/;
const ZId = z.string().regex(ID, "must be 1–64 letters, digits or . _ : -");
const ZMoment = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date and time, e.g. 2026-11-20T14:03:00Z" });
// An Int column: amounts in the currency's minor units (cents), whole, up to 21 million in units.
const ZMinorUnits = z.number().int("must be whole minor units (cents)").max(2_147_483_647);

export const ZExternalRefund = z.strictObject({
  id: ZId,
  amountCents: ZMinorUnits.positive(),
  at: ZMoment,
  /** Where it was made: "shop", "stripe", "pos", … */
  source: z.string().regex(/^[a-z0-9_-]{1,40}$/, "must be 1–40 lower-case letters, digits, _ or -"),
});

export const ZOrderPut = z
  .strictObject({
    customerId: ZId,
    item: outsideText(300),
    amountCents: ZMinorUnits.nonnegative(),
    currency: z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code, e.g. USD"),
    region: z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166 country code, e.g. US"),
    category: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, "must be 1–40 lower-case letters, digits, _ or -"),
    placedAt: ZMoment,
    deliveredAt: ZMoment.nullish(),
    /** The payment provider's id for the order's payment (a Stripe PaymentIntent, pi_…). */
    paymentReference: z
      .string()
      .regex(/^[A-Za-z0-9._:/-]{1,200}$/, "must be 1–200 letters, digits or . _ : / -")
      .nullish(),
    refunds: z.array(ZExternalRefund).max(100).default([]),
  })
  .superRefine((order, ctx) => {
    const ids = order.refunds.map((r) => r.id);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: "custom", path: ["refunds"], message: "names a refund id twice" });
    const total = order.refunds.reduce((sum, r) => sum + r.amountCents, 0);
    // Against a valid amount only: an amount already refused says all there is to say.
    if (order.amountCents >= 0 && total > order.amountCents)
      ctx.addIssue({ code: "custom", path: ["refunds"], message: "add up to more than amountCents" });
  });
export type TOrderPut = z.infer<typeof ZOrderPut>;

export const ZCustomerPut = z.strictObject({
  email: z.email().max(254),
  name: outsideText(200),
  /** Left out: a new customer is not flagged, a known one keeps its flag. */
  flagged: z.boolean().optional(),
});
export type TCustomerPut = z.infer<typeof ZCustomerPut>;

export type TOrdersAnswer = TDeliveryAnswer<200 | 201 | 400 | 401 | 409 | 413 | 415>;

export interface TOrdersConfig {
  /** The secrets in rotation, newest first; empty: the API is closed. */
  secrets: readonly string[];
  toleranceSeconds: number;
  now?: Date;
}

/** The configuration the settings give (ORDERS_SECRETS; the intake's signature tolerance). */
export function configuredOrders(): TOrdersConfig {
  const e = env();
  return { secrets: e.ORDERS_SECRETS ?? [], toleranceSeconds: e.INTAKE_SIGNATURE_TOLERANCE_SECONDS };
}

function refusal(status: TOrdersAnswer["status"], error: TOrdersApiError, message: string = ORDERS_API_ERRORS[error]): TOrdersAnswer {
  return { status, body: { error, message } };
}

type TResource = "order" | "customer";

/** A delivery to PUT /api/orders/{id} or PUT /api/customers/{id}. */
export async function receiveOrders(
  input: TSignedDelivery & { resource: TResource; id: string },
  config: TOrdersConfig = configuredOrders(),
): Promise<TOrdersAnswer> {
  const body = readJsonBody(input, { maxBytes: MAX_ORDER_BYTES, what: `the ${input.resource}` });
  if (!body.ok) return body.response;
  if (config.secrets.length === 0) return refusal(401, "orders_api_closed");
  const verdict = verifyWebhook({
    secrets: config.secrets,
    headers: input.headers,
    payload: body.text,
    toleranceSeconds: config.toleranceSeconds,
    now: config.now,
  });
  if (!verdict.ok) return refusal(401, "invalid_signature", verdict.message);
  if (!ID.test(input.id)) return invalidFields([["id", "must be 1–64 letters, digits or . _ : -"]]);

  const parsed = input.resource === "order" ? parseStrictFields(ZOrderPut, body.text) : parseStrictFields(ZCustomerPut, body.text);
  if (!parsed.ok) return parsed.response;
  const payloadHash = sha256Hex(canonicalJson({ resource: input.resource, id: input.id, body: parsed.value }));
  const delivery = { webhookId: verdict.webhookId, payloadHash };
  try {
    return await db().$transaction(async (tx) => {
      const repeat = await answerRepeat(tx, delivery);
      if (repeat) return repeat;
      const answer =
        input.resource === "order"
          ? await storeOrder(tx, input.id, parsed.value as TOrderPut)
          : await storeCustomer(tx, input.id, parsed.value as TCustomerPut);
      if (answer.status === 200 || answer.status === 201)
        await insertOrderDelivery(tx, { ...delivery, status: answer.status, answer: answer.body });
      else throw new Refused(answer);
      return answer;
    });
  } catch (error) {
    if (error instanceof Refused) return error.answer;
    // A concurrent delivery of the same webhook-id won: answer as its repeat.
    if (isUniqueViolation(error)) {
      const repeat = await answerRepeat(db(), delivery);
      if (repeat) return repeat;
      // Otherwise a customer's email, taken by a delivery committed after it was asked about.
      if (input.resource === "customer") return refusal(409, "email_taken");
    }
    throw error;
  }
}

/** A refusal found inside the transaction: thrown so that everything written before it rolls back. */
class Refused extends Error {
  constructor(readonly answer: TOrdersAnswer) {
    super(String(answer.body.error));
  }
}

async function answerRepeat(
  client: Parameters<typeof readOrderDelivery>[0],
  delivery: Pick<TOrderDeliveryRow, "webhookId" | "payloadHash">,
): Promise<TOrdersAnswer | null> {
  const known = await readOrderDelivery(client, delivery.webhookId);
  if (!known) return null;
  if (known.payloadHash !== delivery.payloadHash)
    return refusal(
      409,
      "idempotency_mismatch",
      `webhook-id ${delivery.webhookId} was already delivered with a different body; nothing was changed.`,
    );
  return { status: known.status as 200 | 201, body: known.answer };
}

const ACTOR = { actorType: "api", actorId: "orders" } as const;

async function storeCustomer(tx: DbTx, id: string, customer: TCustomerPut): Promise<TOrdersAnswer> {
  // Asked first: a unique violation would abort the transaction (one committed meanwhile is answered
  // the same way, by receiveOrders).
  if (await tx.customer.findFirst({ where: { email: customer.email, id: { not: id } }, select: { id: true } }))
    return refusal(409, "email_taken");
  const { created } = await upsertCustomer(tx, { id, ...customer });
  await recordAuditEvent(tx, {
    ...ACTOR,
    action: "customer.upserted",
    subjectType: "customer",
    subjectId: id,
    inputs: { customerId: id, created, flagged: customer.flagged ?? null },
  });
  return { status: created ? 201 : 200, body: { customerId: id, created } };
}

async function storeOrder(tx: DbTx, id: string, order: TOrderPut): Promise<TOrdersAnswer> {
  if (!(await tx.customer.findUnique({ where: { id: order.customerId }, select: { id: true } })))
    return { status: 409, body: { error: "unknown_customer", message: ORDERS_API_ERRORS.unknown_customer, customerId: order.customerId } };
  const { created } = await upsertOrder(tx, {
    id,
    customerId: order.customerId,
    item: order.item,
    amountCents: order.amountCents,
    currency: order.currency,
    region: order.region,
    category: order.category,
    placedAt: new Date(order.placedAt),
    deliveredAt: order.deliveredAt ? new Date(order.deliveredAt) : null,
    paymentReference: order.paymentReference ?? null,
    sourceReadAt: null,
  });
  const refunds = await recordExternalRefunds(
    tx,
    id,
    order.refunds.map((r) => ({ ...r, at: new Date(r.at) })),
  );
  if (refunds.conflicting.length > 0)
    return { status: 409, body: { error: "refund_conflict", message: ORDERS_API_ERRORS.refund_conflict, refundIds: refunds.conflicting } };
  await recordAuditEvent(tx, {
    ...ACTOR,
    action: "order.upserted",
    subjectType: "order",
    subjectId: id,
    inputs: { orderId: id, created, amountCents: order.amountCents, currency: order.currency, newRefunds: refunds.recorded.length },
  });
  return { status: created ? 201 : 200, body: { orderId: id, created, refundsRecorded: refunds.recorded } };
}
