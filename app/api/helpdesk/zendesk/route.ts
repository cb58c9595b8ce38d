// Zendesk posts its tickets and their later comments here (a webhook signed with Zendesk's own scheme;
// no session). The rules live in lib/conversations/receive-helpdesk.ts.
import { signedRoute } from "@/lib/auth/signed-route";
import { MAX_HELPDESK_BYTES, receiveZendeskTicket } from "@/lib/conversations/receive-helpdesk";

export const dynamic = "force-dynamic";

export const POST = signedRoute({
  name: "zendesk delivery",
  maxBytes: MAX_HELPDESK_BYTES,
  receive: (delivery) => receiveZendeskTicket(delivery),
  logged: ["externalId", "messageId", "status"],
});
