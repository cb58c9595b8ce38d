// A route is trusted only if the bundle that assigned it signed it: HMAC-SHA256 over ticket id,
// route and bundle version, so a route cannot be moved to another ticket or relabelled.
import { constantTimeEqual, hmacSha256Hex } from "../contracts/signatures";
import type { TicketRoute } from "../../generated/prisma/enums";

export interface TRouteClaim {
  ticketId: string;
  route: TicketRoute;
  bundleVersion: string;
}

/** The id a route signature covers: the helpdesk's id for tickets that came through the intake API
 * (its classifier signs before our id exists), our own id for tickets typed into the app. */
export function routeClaimId(ticket: { id: string; externalId?: string | null }): string {
  return ticket.externalId ?? ticket.id;
}

export function signRoute(claim: TRouteClaim, key: string): string {
  return hmacSha256Hex(key, `${claim.ticketId}\n${claim.route}\n${claim.bundleVersion}`);
}

export function verifyRouteSignature(claim: TRouteClaim, signature: string | null | undefined, key: string): boolean {
  // The pattern only turns malformed input away before an HMAC is computed: constantTimeEqual compares
  // the whole length and every byte, so a looser pattern (no anchor, || turned to &&) accepts nothing more.
  // Stryker disable next-line Regex,LogicalOperator: equivalent, for the reason above
  if (!signature || !/^[0-9a-f]{64}$/.test(signature)) return false;
  return constantTimeEqual(signature, signRoute(claim, key));
}
