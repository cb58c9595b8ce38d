// The tools behind the allowlisted actions. Each declares the observation it must return; the
// runtime validates it before anything reaches the state, and holds a draft to its invariants
// (draft-invariants.ts) whichever tool wrote it: tools are replaceable, the checks are not. None of them can move money: the ledger
// is not imported here, and propose_refund writes a typed proposal, nothing more.
import { z } from "zod";

import { randomUUID } from "node:crypto";
import { driverOf, type Db, type DbTx } from "../db";
import { countProposalFacts, stillRefundableCents } from "../orders/refund-facts";
import { readOrder, type TOrderRow } from "../orders/read-order";
import { orderSource } from "../orders/order-source";
import { insertProposal } from "../approvals/store/approval-store";
import { answerPolicyQuestion } from "../evidence/answer-policy-question";
import { ticketLanguage } from "../evidence/language";
import { ABSTAIN_REASONS } from "../contracts/reason-codes";
import { numbersIn } from "../evidence/check-draft";
import { recordAuditEvent } from "../audit/record-audit-event";
import { evaluateRefund } from "../policy/evaluate-refund";
import type { TPolicySettings } from "../policy/settings";
import type { TActionName, TAllowedAction } from "../contracts/actions";
import { CITATION_ID } from "../contracts/citations";
import { PROPOSAL_DECISIONS } from "../contracts/proposal-decision";
import { draftReply } from "./rule-drafter";
import type { TAgentState, TOrderFacts } from "./state";

export interface TToolContext {
  client: Db;
  state: TAgentState;
  runId: string;
  mode: "live" | "simulate";
  settings: TPolicySettings;
  signal: AbortSignal;
  /** Tools that call a model report its measured usage here; it counts against the token budget. */
  reportUsage: (usage: {
    promptTokens: number;
    completionTokens: number;
    cachedTokens?: number;
    model?: string;
    promptVersion?: string;
  }) => void;
  /** Tokens the run has left when the tool starts: a tool that calls a model keeps within them. */
  tokensLeft: number;
  /** The order the ticket names (`ref`, its orderRef), read with the run's first statement: a lookup
   * of that very reference needs no statement of its own. Its refunds so far are as of the run's
   * start; the executor checks what is still refundable again, under the order's lock. */
  ticketOrder?: { ref: string; row: TOrderRow | null };
}

const ZPassage = z.object({
  chunkId: z.string(),
  docKey: z.string(),
  version: z.number().int(),
  citation: z.string().regex(CITATION_ID),
  title: z.string(),
  heading: z.string(),
  text: z.string(),
  locale: z.string(),
  // Kept through the observation: the draft check refuses staff-only text by it (check-draft.ts rule 5).
  audience: z.enum(["customer", "staff"]),
  score: z.number(),
  coverage: z.number(),
});

const ZOrderFacts = z.strictObject({
  id: z.string(),
  item: z.string(),
  category: z.string(),
  amountCents: z.number().int().nonnegative(),
  currency: z.string().length(3),
  deliveredAt: z.string().nullable(),
  daysSinceDelivery: z.number().int().nullable(),
  refundedCents: z.number().int().nonnegative(),
  refundableCents: z.number().int().nonnegative(),
  customerName: z.string(),
  customerFlagged: z.boolean(),
});

export const TOOL_OUTPUTS = {
  get_policy_evidence: z.discriminatedUnion("status", [
    z.object({
      status: z.literal("grounded"),
      question: z.string(),
      passages: z.array(ZPassage).min(1),
      citations: z.array(z.string()).min(1),
    }),
    z.object({
      status: z.literal("abstain"),
      question: z.string(),
      passages: z.array(ZPassage).length(0),
      citations: z.array(z.string()).length(0),
      reason: z.enum(ABSTAIN_REASONS),
    }),
  ]),
  lookup_order: z.discriminatedUnion("found", [
    z.strictObject({ found: z.literal(false), orderId: z.string() }),
    z.strictObject({ found: z.literal(true), order: ZOrderFacts }),
  ]),
  draft_reply: z.strictObject({ text: z.string().min(1).max(8000), citations: z.array(z.string().regex(CITATION_ID)).min(1) }),
  propose_refund: z.strictObject({
    id: z.string().nullable(),
    orderId: z.string(),
    amountCents: z.number().int().positive(),
    currency: z.string(),
    reason: z.string(),
    decision: z.enum(PROPOSAL_DECISIONS),
    reasons: z.array(z.string()),
    requiredRole: z.string().nullable(),
    policyVersion: z.string(),
  }),
  request_human_approval: z.strictObject({ handedOff: z.literal(true), reason: z.string() }),
} satisfies Record<TActionName, z.ZodType>;

export type TToolOutput<K extends TActionName> = z.infer<(typeof TOOL_OUTPUTS)[K]>;
export type TToolImpl = (args: TAllowedAction["args"], ctx: TToolContext) => Promise<unknown>;
export type TToolSet = Record<TActionName, TToolImpl>;

// The order as the tables hold it, read through the installation's order source (lib/orders).
export { orderRowSql, readOrder, type TOrderRow } from "../orders/read-order";

/** What the trace and the run's end say when a ticket names another customer's order: nothing of it. */
export const ORDER_CUSTOMER_MISMATCH = "the order does not belong to the ticket's customer";

/**
 * A tool was asked about an order that is not the ticket's customer's. The runtime stops the run with
 * order_customer_mismatch; its message is the only thing recorded, so no detail of that order reaches
 * the state, the planner, a draft or the trace.
 */
export class OrderCustomerMismatch extends Error {
  constructor() {
    super(ORDER_CUSTOMER_MISMATCH);
    this.name = "OrderCustomerMismatch";
  }
}

/** Whether an order is the ticket's customer's: the emails compared case-insensitively. */
export function isTicketCustomers(row: { customerEmail: string }, ticket: { customerEmail: string }): boolean {
  return row.customerEmail.trim().toLowerCase() === ticket.customerEmail.trim().toLowerCase();
}

/** Tools that write (a proposal row): the audit events of the run's calls so far go first. */
export const WRITING_TOOLS: ReadonlySet<TActionName> = new Set(["propose_refund"]);

const DAY_MS = 86_400_000;

/** What the agent observes of an order, as of `now`. */
export function orderFactsOf(row: TOrderRow, now = Date.now()): TOrderFacts {
  const refundedCents = Number(row.refundedCents);
  return {
    id: row.id,
    item: row.item,
    category: row.category,
    amountCents: row.amountCents,
    currency: row.currency,
    deliveredAt: row.deliveredAt,
    daysSinceDelivery: row.deliveredAt ? Math.floor((now - Date.parse(row.deliveredAt)) / DAY_MS) : null,
    refundedCents,
    refundableCents: stillRefundableCents(row, refundedCents),
    customerName: row.customerName,
    customerFlagged: row.customerFlagged,
  };
}

export async function orderFacts(client: Db | DbTx, orderId: string): Promise<TOrderFacts | null> {
  const row = await readOrder(client, orderId);
  return row ? orderFactsOf(row) : null;
}

/** Numbers the order supports in a draft: its amounts, its age (in days: "12 days", "twelve days" or
 * "12" is the order's, "12 weeks" is not), and digits in its id and name. */
export function orderNumbers(order: TOrderFacts): (string | number)[] {
  return [
    order.amountCents / 100,
    order.refundableCents / 100,
    order.refundedCents / 100,
    ...(order.daysSinceDelivery === null ? [] : [`${order.daysSinceDelivery} days`]),
    ...numbersIn(order.id),
    ...numbersIn(order.item),
  ];
}

/** The order's own words, which a draft may use without making a claim: the customer's name, the order id, the item. */
export function orderTerms(order: TOrderFacts): string[] {
  return [order.customerName, order.id, order.item];
}

export const DEFAULT_TOOLS: TToolSet = {
  async get_policy_evidence(args, { client, state }) {
    // Asked in the ticket's language, whoever wrote the question: the answer is for this customer.
    return answerPolicyQuestion(client, { question: (args as { question: string }).question, locale: ticketLanguage(state.ticket) });
  },

  async lookup_order(args, { client, state, ticketOrder }) {
    const orderId = (args as { order_id: string }).order_id;
    const row = await orderSource().lookupOrder(client, orderId, ticketOrder);
    // Another customer's order is not looked up for this ticket: whoever names it learns nothing of it.
    if (row && !isTicketCustomers(row, state.ticket)) throw new OrderCustomerMismatch();
    return row ? { found: true, order: orderFactsOf(row) } : { found: false, orderId };
  },

  async draft_reply(_args, { state }) {
    return draftReply(state);
  },

  async propose_refund(args, { client, state, runId, mode, settings }) {
    const { order_id, amount_cents, reason } = args as { order_id: string; amount_cents: number; reason: string };
    if (state.order?.found !== true) throw new Error("unreachable: checked by the transition rules");
    const order = state.order.order;
    void order_id; // the policy gate has already held it to the ticket's order
    const facts = {
      amountCents: amount_cents,
      currency: order.currency,
      orderCurrency: order.currency,
      customerFlagged: order.customerFlagged,
    };
    // Whether this proposal could be auto-approved at all, before anything is counted: if so, it
    // queues on the day's cap too (a proposal the customer's count then denies queued for nothing).
    const mayAutoApprove =
      mode === "live" &&
      evaluateRefund({ ...facts, customerProposalsToday: 0, autoApprovedTodayCents: 0 }, settings).decision === "auto_approved";
    // The day's auto-approved total is weighed only for an amount within the dial (the cap is
    // checked there, evaluate-refund.ts); above it, the total changes nothing and is not summed.
    const weighsDayTotal = amount_cents <= settings["autonomy.autoApproveLimitCents"];
    return driverOf(client).transaction(async (tx) => {
      // The per-customer limit and the daily auto-approve cap are checked and consumed in this one
      // transaction, under the locks countProposalFacts takes: each run sees the proposals before it.
      // The order is held to the ticket's customer again here, where the proposal is written.
      const counts = await countProposalFacts(tx, {
        orderId: order.id,
        ticketEmail: state.ticket.customerEmail,
        live: mode === "live",
        mayAutoApprove,
        weighsDayTotal,
      });
      if (counts.ownOrder === null) throw new Error(`order ${order.id} no longer exists`);
      if (!counts.ownOrder) throw new OrderCustomerMismatch();
      const decision = evaluateRefund(
        { ...facts, customerProposalsToday: counts.customerProposalsToday, autoApprovedTodayCents: counts.autoApprovedTodayCents },
        settings,
      );
      const view = {
        orderId: order.id,
        amountCents: amount_cents,
        currency: order.currency,
        reason,
        decision: decision.decision,
        reasons: decision.reasons,
        requiredRole: decision.requiredRole,
        policyVersion: decision.policyVersion,
      };
      await recordAuditEvent(tx, {
        actorType: "agent",
        actorId: runId,
        action: "proposal.recorded",
        subjectType: "order",
        subjectId: order.id,
        ticketId: state.ticket.id,
        inputs: { amountCents: amount_cents, currency: order.currency, reason, mode },
        policyDecision: decision,
      });
      // createdAt in UTC, as the day's counts above read it.
      const row = {
        id: randomUUID(),
        runId,
        ticketId: state.ticket.id,
        orderId: order.id,
        amountCents: amount_cents,
        currency: order.currency,
        reason,
        decision: decision.decision,
        decisionReasons: decision.reasons,
        policyVersion: decision.policyVersion,
        requiredRole: decision.requiredRole,
        simulated: mode === "simulate",
        createdAt: new Date().toISOString(),
      };
      await insertProposal(tx, row);
      return { id: row.id, ...view };
    });
  },

  async request_human_approval(args) {
    return { handedOff: true, reason: (args as { reason: string }).reason };
  },
};
