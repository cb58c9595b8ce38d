// The helpdesk asks here to erase a customer's personal data, signed as ticket deliveries are
// (Standard Webhooks; no session); the rules live in lib/privacy/erase-customer.ts.
import { signedRoute } from "@/lib/auth/signed-route";
import { MAX_INTAKE_BYTES, receiveErasureIntake } from "@/lib/intake/receive-intake";
import { storeErasureRequest } from "@/lib/privacy/erase-over-api";

export const dynamic = "force-dynamic";

export const POST = signedRoute({
  name: "intake erasure",
  maxBytes: MAX_INTAKE_BYTES,
  receive: (delivery) => receiveErasureIntake(delivery, storeErasureRequest),
  logged: ["customerId", "status"],
});
