// What the refund policy decided about a proposal: one word list for the policy, the tools' observation
// schema, the agent's state, the episode format and the database (enum ProposalDecision).
import type { ProposalDecision } from "../../generated/prisma/enums";
import type { TSameMembers } from "./same-members";

export const PROPOSAL_DECISIONS = ["auto_approved", "needs_human", "denied"] as const satisfies readonly ProposalDecision[];
export type TProposalDecision = (typeof PROPOSAL_DECISIONS)[number];

const _sameAsTheDatabase: TSameMembers<TProposalDecision, ProposalDecision> = true;
