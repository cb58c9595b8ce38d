// The built-in intake classifier bundle: deterministic keyword and risk rules for tickets typed into
// the app. High-risk intake goes straight to a person; everything else may be drafted by the agent.
import type { TicketRoute } from "../../generated/prisma/enums";
import { agentManifest } from "../contracts/manifest";

/** The built-in bundle is the bundle the manifest pins (contracts/agent_manifest.json, intakeBundle):
 * what it signs at intake is admitted by the same pin there and at the agent loop's door. A change to
 * its rules is a new version in the manifest. */
export const BUILTIN_BUNDLE_VERSION = agentManifest().intakeBundle;

export const RISK_RULES: readonly { risk: string; pattern: RegExp }[] = [
  { risk: "account_access", pattern: /\b(log ?in|sign ?in|locked out|password|2fa|two[- ]factor|account access|hacked|compromised)\b/i },
  { risk: "address_change", pattern: /\b(change|update|new|different)\b[^.?!]{0,40}\b(address|shipping to|deliver to)\b/i },
  {
    risk: "chargeback_or_legal",
    pattern:
      /\b(charge ?back|dispute (it )?with my (bank|card)|lawyer|attorney|legal action|sue|lawsuit|small claims|consumer protection)\b/i,
  },
  { risk: "abuse", pattern: /\b(kill|threat(en)?|idiots?|stupid|hate you|i will find you)\b/i },
];

export interface TClassification {
  route: TicketRoute;
  risks: string[];
}

export function classifyTicket(ticket: { subject: string; body: string }): TClassification {
  const text = `${ticket.subject}\n${ticket.body}`;
  const risks = RISK_RULES.filter((r) => r.pattern.test(text)).map((r) => r.risk);
  return { route: risks.length ? "human_review_now" : "guarded_agent", risks };
}
