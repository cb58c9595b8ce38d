// The helpdesk delivers tickets here. Machine callers authenticate each request by a signature of
// the raw body (Standard Webhooks; no session); the rules live in lib/intake/receive-intake.ts.
import { signedRoute } from "@/lib/auth/signed-route";
import { MAX_INTAKE_BYTES, receiveIntake } from "@/lib/intake/receive-intake";

export const dynamic = "force-dynamic";

export const POST = signedRoute({
  name: "intake delivery",
  maxBytes: MAX_INTAKE_BYTES,
  receive: (delivery) => receiveIntake(delivery),
  logged: ["externalId", "admission", "reason"],
});
