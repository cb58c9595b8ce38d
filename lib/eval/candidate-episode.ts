// An episode made from a person's judgement of a run: the ticket's words with personal data replaced,
// its order as the template the grader copies, and the outcome expected taken from what the person
// decided. Pure: save-episode-candidate.ts reads the rows and stores what this returns. The result is
// checked by the same schema as eval/episodes.jsonl (ZEpisode), so a promoted candidate is graded
// exactly as a written one.
import type { Role } from "../contracts/roles";
import type { TAnnotationReason, TAnnotationVerdict } from "../contracts/reason-codes";
import { ZEpisode, type ORDER_PRESETS, type TEpisode } from "./episode";

type TOrderPreset = (typeof ORDER_PRESETS)[number];

/** What the placeholders say in place of personal data. */
export const PLACEHOLDERS = { name: "[name]", email: "[email]", address: "[address]", phone: "[phone]" } as const;

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const PHONE = /\+?\d[\d ().-]{7,}\d/g;
// A street address: a house number, words, and a street word ("12 Baker Street", "400 N. Oak Ave").
const ADDRESS = /\b\d{1,6}\s+(?:[A-Z][\w.'-]*\s+){1,4}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Square|Sq)\b/g;
// A name the customer signs with or introduces themselves by.
const SIGNED_NAME = /\b(my name is|this is|i am|i'm|regards,|thanks,|thank you,|best,|cheers,)(\s+)([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)/gi;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The text with emails, phone numbers, street addresses and names replaced by placeholders: the
 * names known (the customer's, each of its words), and a name the writer signs with. The order's id
 * is left to the caller (it becomes `{order}`).
 */
export function redactPersonalData(text: string, known: { names: readonly string[]; emails: readonly string[] }, keep: readonly string[] = []): string {
  // The order id survives the digit rules: set aside first, put back last.
  const kept = keep.filter(Boolean).map((k, i) => ({ k, mark: `\u0000${i}\u0000` }));
  let out = kept.reduce((t, { k, mark }) => t.replaceAll(k, mark), text);
  for (const email of known.emails.filter(Boolean)) out = out.replace(new RegExp(escape(email), "gi"), PLACEHOLDERS.email);
  out = out.replace(EMAIL, PLACEHOLDERS.email).replace(ADDRESS, PLACEHOLDERS.address).replace(PHONE, PLACEHOLDERS.phone);
  const words = known.names.flatMap((n) => [n, ...n.split(/\s+/)]).filter((w) => w.length > 1);
  for (const word of words.sort((a, b) => b.length - a.length)) out = out.replace(new RegExp(`\\b${escape(word)}\\b`, "gi"), PLACEHOLDERS.name);
  out = out.replace(SIGNED_NAME, (_, lead: string, gap: string) => `${lead}${gap}${PLACEHOLDERS.name}`);
  return kept.reduce((t, { k, mark }) => t.replaceAll(mark, k), out);
}

/** The grader's order presets (eval/episode.ts), from what the ticket's order is like. */
export function orderPreset(order: { exists: boolean; id: string | null; amountCents: number; flagged: boolean; deliveredDaysAgo: number | null }): TOrderPreset {
  if (!order.id) return "none";
  if (!order.exists) return "missing";
  if (order.flagged) return "flagged";
  if (order.deliveredDaysAgo !== null && order.deliveredDaysAgo > 30) return "old";
  return order.amountCents >= 50_000 ? "laptop" : "tablet";
}

export interface TCandidateInput {
  id: string;
  ticketNumber: number;
  ticket: { subject: string; body: string; orderRef: string | null };
  customer: { names: string[]; emails: string[] };
  preset: TOrderPreset;
  planner: string;
  run: { status: string; reason: string; path: string[]; citations: string[]; proposal: { decision: string; requiredRole: string | null } | null };
  /** The person's decision on the run's request, when there was one. */
  decision: { kind: "approve" | "reject"; role: Role; note: string | null; refundExecuted: boolean } | null;
  annotation: { verdict: TAnnotationVerdict; reason: TAnnotationReason | null };
}

/** The outcome expected: the run as the person judged it, with their decision and correction applied. */
function expected(input: TCandidateInput): TEpisode["expect"] {
  const { run, decision, annotation } = input;
  const noRefund = annotation.verdict === "wrong" && annotation.reason === "refund_not_due";
  const proposal = run.proposal && !noRefund ? { decision: run.proposal.decision, requiredRole: run.proposal.requiredRole } : null;
  const approved = decision?.kind === "approve";
  return {
    status: run.status,
    reason: run.reason,
    // No refund was due: the same path without the proposal.
    path: noRefund ? run.path.filter((a) => a !== "propose_refund") : run.path,
    citations: run.citations,
    refunds: approved && proposal && !noRefund && decision.refundExecuted ? 1 : 0,
    ...(proposal ? { proposal } : {}),
    ...(decision ? { approval: "decided" } : {}),
    ...(approved && proposal && !noRefund && decision.refundExecuted ? { executions: ["refund_created"] } : {}),
  } as TEpisode["expect"];
}

/** The candidate episode, checked by the dataset's schema (a DatasetError-like zod error otherwise). */
export function buildCandidateEpisode(input: TCandidateInput): TEpisode {
  const { ticket, customer, decision, annotation } = input;
  const redact = (text: string) => redactPersonalData(text, customer, ticket.orderRef ? [ticket.orderRef] : []);
  const withOrder = (text: string) => (ticket.orderRef && input.preset !== "none" ? text.replaceAll(ticket.orderRef, "{order}") : text);
  const verdict = annotation.verdict === "correct" ? "judged correct" : `judged wrong (${annotation.reason ?? "other"})`;
  // A person's role on the episode: a lead decides nothing, so their annotation replays no decision.
  const as = decision && decision.role !== "LEAD" ? decision.role : null;
  return ZEpisode.parse({
    id: input.id,
    title: `Ticket #${input.ticketNumber}, ${verdict} by a person`,
    ticket: { subject: withOrder(redact(ticket.subject)), body: withOrder(redact(ticket.body)), order: input.preset },
    planner: input.planner === "model" ? "model" : "rule",
    ...(decision && as ? { approval: { as, decision: decision.kind, ...(decision.note ? { note: redact(decision.note) } : {}) } } : {}),
    expect: expected({ ...input, decision: as ? decision : null }),
  });
}
