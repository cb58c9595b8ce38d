// An email service posts received messages here as JSON, signed like the intake API (Standard Webhooks;
// no session). The rules live in lib/conversations/receive-helpdesk.ts.
import { signedRoute } from "@/lib/auth/signed-route";
import { MAX_HELPDESK_BYTES, receiveInboundEmail } from "@/lib/conversations/receive-helpdesk";

export const dynamic = "force-dynamic";

export const POST = signedRoute({
  name: "email delivery",
  maxBytes: MAX_HELPDESK_BYTES,
  receive: (delivery) => receiveInboundEmail(delivery),
  logged: ["externalId", "messageId", "status"],
});
