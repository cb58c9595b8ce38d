// The deliveries page's rows: each released reply's delivery, newest first, with its state in words.
import { db as defaultDb, type Db } from "../db";
import { listDeliveries, type TDeliveryState } from "./store/delivery-store";

export const DELIVERY_STATES = ["pending", "delivered", "failed", "withdrawn"] as const satisfies readonly TDeliveryState[];

export const DELIVERY_STATE_LABELS = {
  pending: "Waiting to be delivered",
  delivered: "Delivered",
  failed: "Failed",
  withdrawn: "Withdrawn",
} satisfies Record<TDeliveryState, string>;

export const CHANNEL_LABELS: Record<string, string> = { outbox: "Outbox (polled)", webhook: "Webhook", zendesk: "Zendesk", email: "Email" };

export async function deliveriesPage(input: { state?: string | null; client?: Db }) {
  const state = (DELIVERY_STATES as readonly string[]).includes(input.state ?? "") ? (input.state as TDeliveryState) : null;
  const rows = await listDeliveries(input.client ?? defaultDb(), { state });
  return {
    state,
    rows: rows.map((r) => ({
      id: r.id,
      state: r.state as TDeliveryState,
      channel: r.channel,
      attempts: r.attempts,
      failureReason: r.failureReason,
      lastError: r.lastError,
      externalRef: r.externalRef,
      disclosed: r.disclosed,
      createdAt: r.createdAt,
      deliveredAt: r.deliveredAt,
      ticket: r.ticket,
    })),
  };
}
