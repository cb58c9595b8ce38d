// A helpdesk delivery as the intake API expects it: the cracked-tablet ticket, its route signed with
// the intake bundle key, with any field overridden (undefined drops it from the JSON).
import { intakeBundleKey } from "../lib/env";
import { signRoute } from "../lib/intake/route-signature";

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
