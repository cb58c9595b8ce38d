// A helpdesk delivery as the intake API expects it: the cracked-tablet ticket, its route signed with
// the intake bundle key, with any field overridden (undefined drops it from the JSON).
import { randomUUID } from "node:crypto";
import { intakeBundleKey } from "../lib/env";
import { signRoute } from "../lib/intake/route-signature";
import { signWebhook } from "../lib/intake/webhook-signature";

export function intakeTicket(externalId: string, overrides: Record<string, unknown> = {}) {
  const route = { ticketId: externalId, route: "guarded_agent" as const, bundleVersion: "intake-rules-2026.11" };
  return {
    externalId,
    subject: "Tablet arrived cracked",
    body: "The screen is cracked. Can I get a refund?",
    customerEmail: "dana.whitfield@example.net",
    orderId: "ORD-1001",
    route: route.route,
    bundleVersion: route.bundleVersion,
    routeSignature: signRoute(route, intakeBundleKey()),
    ...overrides,
  };
}

/** Standard Webhooks headers signing `raw` with `secret`, now (or at `timestamp`), with a fresh id unless given. */
export function webhookHeaders(raw: string, secret: string, options: { id?: string; timestamp?: Date } = {}): Record<string, string> {
  return {
    "content-type": "application/json",
    ...signWebhook({ secret, id: options.id ?? `msg_${randomUUID()}`, timestamp: options.timestamp ?? new Date(), payload: raw }),
  };
}
