// The tools behind the allowlisted actions. Each declares the observation it must return; the
// runtime validates it before anything reaches the state. None of them can move money: the ledger
// is not imported here, and propose_refund writes a typed proposal, nothing more.
import { z } from "zod";
import type { Db } from "../db";
import { answerPolicyQuestion } from "../evidence/answer-policy-question";
import { checkDraft, numbersIn } from "../evidence/check-draft";
import { recordAuditEvent } from "../audit/record-audit-event";
import { evaluateRefund } from "../policy/evaluate-refund";
import type { TPolicySettings } from "../policy/settings";
import type { TActionName, TAllowedAction } from "./actions";
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
  reportUsage: (usage: { promptTokens: number; completionTokens: number; model?: string; promptVersion?: string }) => void;
}

const ZPassage = z.object({
  chunkId: z.string(),
  docKey: z.string(),
  version: z.number().int(),
  citation: z.string().regex(/^[a-z0-9-]+@\d+$/),
  title: z.string(),
  heading: z.string(),
  text: z.string(),
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
    z.object({ status: z.literal("grounded"), question: z.string(), passages: z.array(ZPassage).min(1), citations: z.array(z.string()).min(1) }),
    z.object({ status: z.literal("abstain"), question: z.string(), passages: z.array(ZPassage).length(0), citations: z.array(z.string()).length(0), reason: z.literal("no_approved_evidence") }),
  ]),
  lookup_order: z.discriminatedUnion("found", [z.strictObject({ found: z.literal(false), orderId: z.string() }), z.strictObject({ found: z.literal(true), order: ZOrderFacts })]),
  draft_reply: z.strictObject({ text: z.string().min(1).max(8000), citations: z.array(z.string()).min(1) }),
  propose_refund: z.strictObject({
    id: z.string().nullable(),
    orderId: z.string(),
    amountCents: z.number().int().positive(),
    currency: z.string(),
    reason: z.string(),
    decision: z.enum(["auto_approved", "needs_human", "denied"]),
    reasons: z.array(z.string()),
    requiredRole: z.string().nullable(),
    policyVersion: z.string(),
  }),
  request_human_approval: z.strictObject({ handedOff: z.literal(true), reason: z.string() }),
} satisfies Record<TActionName, z.ZodType>;

export type TToolOutput<K extends TActionName> = z.infer<(typeof TOOL_OUTPUTS)[K]>;
export type TToolImpl = (args: TAllowedAction["args"], ctx: TToolContext) => Promise<unknown>;
export type TToolSet = Record<TActionName, TToolImpl>;

const DAY_MS = 86_400_000;

export async function orderFacts(client: Db, orderId: string): Promise<TOrderFacts | null> {
  const order = await client.order.findFirst({ where: { id: { equals: orderId.trim(), mode: "insensitive" } }, include: { customer: true } });
  if (!order) return null;
  const refunded = await client.ledgerEntry.aggregate({ where: { orderId: order.id }, _sum: { amountCents: true } });
  const refundedCents = refunded._sum.amountCents ?? 0;
  return {
    id: order.id,
    item: order.item,
    category: order.category,
    amountCents: order.amountCents,
    currency: order.currency,
    deliveredAt: order.deliveredAt?.toISOString() ?? null,
    daysSinceDelivery: order.deliveredAt ? Math.floor((Date.now() - order.deliveredAt.getTime()) / DAY_MS) : null,
    refundedCents,
    refundableCents: Math.max(0, order.amountCents - refundedCents),
    customerName: order.customer.name,
    customerFlagged: order.customer.flagged,
  };
}

/** Numbers the order supports in a draft: its amounts, its age, and digits in its id and name. */
export function orderNumbers(order: TOrderFacts): (string | number)[] {
  return [
    order.amountCents / 100,
    order.refundableCents / 100,
    order.refundedCents / 100,
    ...(order.daysSinceDelivery === null ? [] : [order.daysSinceDelivery]),
    ...numbersIn(order.id),
    ...numbersIn(order.item),
  ];
}

export class DraftCheckFailed extends Error {
  constructor(readonly problems: ReturnType<typeof checkDraft>) {
    super(`draft failed its checks: ${problems.map((p) => ("citation" in p ? `${p.kind} ${p.citation}` : "value" in p ? `${p.kind} ${p.value}` : p.kind)).join("; ")}`);
  }
}

export const DEFAULT_TOOLS: TToolSet = {
  async get_policy_evidence(args, { client }) {
    return answerPolicyQuestion(client, (args as { question: string }).question);
  },

  async lookup_order(args, { client }) {
    const orderId = (args as { order_id: string }).order_id;
    const order = await orderFacts(client, orderId);
    return order ? { found: true, order } : { found: false, orderId };
  },

  async draft_reply(_args, { state }) {
    const draft = draftReply(state);
    if (state.evidence?.status !== "grounded" || state.order?.found !== true) throw new Error("unreachable: checked by the transition rules");
    const problems = checkDraft({ draft: draft.text, retrieved: state.evidence.passages, orderNumbers: orderNumbers(state.order.order) });
    if (problems.length) throw new DraftCheckFailed(problems);
    return draft;
  },

  async propose_refund(args, { client, state, runId, mode, settings }) {
    const { order_id, amount_cents, reason } = args as { order_id: string; amount_cents: number; reason: string };
    if (state.order?.found !== true) throw new Error("unreachable: checked by the transition rules");
    const order = state.order.order;
    const startOfDay = new Date();
    startOfDay.setUTCHours(0, 0, 0, 0);
    void order_id; // the policy gate has already held it to the ticket's order
    return client.$transaction(async (tx) => {
      // The per-customer limit and the daily auto-approve cap are checked and consumed in one
      // transaction, under locks: concurrent runs for one customer queue on the customer's lock, and
      // runs that could auto-approve queue on the day's cap, so each sees the proposals before it.
      if (mode === "live") await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`refund-proposals:${state.ticket.customerEmail.toLowerCase()}`}))`;
      const customerProposalsToday = await tx.refundProposal.count({ where: { simulated: false, createdAt: { gte: startOfDay }, order: { customer: { email: state.ticket.customerEmail } } } });
      const facts = { amountCents: amount_cents, currency: order.currency, orderCurrency: order.currency, customerFlagged: order.customerFlagged, customerProposalsToday };
      if (mode === "live" && evaluateRefund({ ...facts, autoApprovedTodayCents: 0 }, settings).decision === "auto_approved") {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`auto-approve-cap:${startOfDay.toISOString().slice(0, 10)}`}))`;
      }
      const autoApprovedToday = await tx.refundProposal.aggregate({ where: { decision: "auto_approved", simulated: false, createdAt: { gte: startOfDay } }, _sum: { amountCents: true } });
      const decision = evaluateRefund({ ...facts, autoApprovedTodayCents: autoApprovedToday._sum.amountCents ?? 0 }, settings);
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
      const proposal = await tx.refundProposal.create({
        data: {
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
        },
      });
      return { id: proposal.id, ...view };
    });
  },

  async request_human_approval(args) {
    return { handedOff: true, reason: (args as { reason: string }).reason };
  },
};
