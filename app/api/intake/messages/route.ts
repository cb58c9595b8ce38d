// The helpdesk delivers a customer's follow-up messages here, signed as ticket deliveries are
// (Standard Webhooks; no session); the rules live in lib/intake/receive-intake.ts and lib/conversations/receive-follow-up.ts.
import { signedRoute } from "@/lib/auth/signed-route";
import { storeFollowUpDelivery } from "@/lib/conversations/receive-follow-up";
import { MAX_INTAKE_BYTES, receiveFollowUpIntake } from "@/lib/intake/receive-intake";

export const dynamic = "force-dynamic";

export const POST = signedRoute({
  name: "intake follow-up",
  maxBytes: MAX_INTAKE_BYTES,
  receive: (delivery) => receiveFollowUpIntake(delivery, storeFollowUpDelivery),
  logged: ["messageId", "status"],
});
