// The admission gate: only a ticket routed to the agent by the pinned bundle, with a signature that
// verifies, enters the agent loop. Everything else goes to a person untouched by any planner or tool.
import { verifyRouteSignature, type TRouteClaim } from "./route-signature";

export type TAdmission =
  | { admission: "admitted"; reason: null }
  | { admission: "bypassed"; reason: "stale_intake_bundle" | "unverified_route" | "classifier_human_review" };

export function admitTicket(
  claim: TRouteClaim & { signature: string | null | undefined },
  pinned: { bundleVersion: string; key: string },
): TAdmission {
  // Order matters: a route minted by another bundle is not checked against this bundle's key.
  if (claim.bundleVersion !== pinned.bundleVersion) return { admission: "bypassed", reason: "stale_intake_bundle" };
  if (!verifyRouteSignature(claim, claim.signature, pinned.key)) return { admission: "bypassed", reason: "unverified_route" };
  if (claim.route !== "guarded_agent") return { admission: "bypassed", reason: "classifier_human_review" };
  return { admission: "admitted", reason: null };
}
