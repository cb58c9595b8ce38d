// An episode written into a grading database: its own customer, its copy of a template order and its
// ticket, named by its tag, so no episode sees another's refunds or limits. Two statements: the
// customer with the order (lib/orders/order-store.ts), the ticket with its audit event (insertTicket,
// as the intake API writes it).
import { intakeBundleKey } from "../env";
import { insertTicket } from "../intake/create-ticket";
import { classifyTicket, BUILTIN_BUNDLE_VERSION } from "../intake/builtin-bundle";
import { signRoute } from "../intake/route-signature";
import { insertCustomerWithOrderCopy } from "../orders/order-store";
import { receiveFollowUp } from "../conversations/receive-follow-up";
import { orderTemplate, seededTicket, type TGradingDb } from "./episode-images";
import type { TEpisode } from "./episode";

/** The episode's ticket and order, once written. */
export interface TEpisodeWorld {
  ticketId: string;
  orderId: string | null;
}

const TEMPLATE_ORDERS: Record<string, string> = { tablet: "ORD-1001", laptop: "ORD-1002", flagged: "ORD-1003", old: "ORD-1004" };
const PRESET_OF_ORDER = Object.fromEntries(Object.entries(TEMPLATE_ORDERS).map(([k, v]) => [v, k]));

interface TTicketSource {
  subject: string;
  /** `{order}` stands for the episode's own order id. */
  body: string;
  /** The template order (TEMPLATE_ORDERS), "missing" or "none". */
  preset: string;
  /** Absent or null: classified and versioned by the built-in bundle. */
  route?: "guarded_agent" | "human_review_now" | null;
  bundleVersion?: string | null;
  signature: "valid" | "missing" | "forged";
  from: "customer" | "stranger";
}

/** The ticket an episode describes: a seeded one, its order reference turned back into `{order}`, or its own. */
async function ticketSource(g: TGradingDb, ticket: TEpisode["ticket"]): Promise<TTicketSource> {
  if (!("seeded" in ticket)) return { ...ticket, preset: ticket.order };
  const seed = await seededTicket(g, ticket.seeded);
  const preset = seed.orderRef ? (PRESET_OF_ORDER[seed.orderRef] ?? "missing") : "none";
  const body = seed.orderRef && preset !== "missing" ? seed.body.replaceAll(seed.orderRef, "{order}") : seed.body;
  return { subject: seed.subject, body, preset, route: seed.route, bundleVersion: seed.bundleVersion, signature: "valid", from: "customer" };
}

/** The episode's customer and its copy of the template order. */
async function copyOrder(g: TGradingDb, templateId: string, tag: string): Promise<string> {
  const orderId = `ORD-${tag}`;
  await insertCustomerWithOrderCopy(g.client, { template: await orderTemplate(g, templateId), customerId: `CUS-${tag}`, email: `${tag.toLowerCase()}@eval.example`, orderId });
  return orderId;
}

/** The episode's own ticket, customer and order, written as `actorId` (the grader). */
export async function materializeEpisode(g: TGradingDb, episode: TEpisode, tag: string, actorId: string): Promise<TEpisodeWorld> {
  const source = await ticketSource(g, episode.ticket);
  let orderId: string | null = null;
  if (source.preset === "missing") orderId = `ORD-MISSING-${tag}`;
  else if (source.preset !== "none") orderId = await copyOrder(g, TEMPLATE_ORDERS[source.preset]!, tag);
  const { subject } = source;
  const body = source.body.replaceAll("{order}", orderId ?? "");

  const externalId = `eval-${tag}`;
  const claim = { ticketId: externalId, route: source.route ?? classifyTicket({ subject, body }).route, bundleVersion: source.bundleVersion ?? BUILTIN_BUNDLE_VERSION };
  const signature = source.signature === "valid" ? signRoute(claim, intakeBundleKey()) : source.signature === "forged" ? "0".repeat(64) : null;
  const customerEmail = source.from === "stranger" ? `stranger-${tag.toLowerCase()}@eval.example` : `${tag.toLowerCase()}@eval.example`;
  // The ticket and its audit event in one statement (as the intake API writes them).
  const ticket = await insertTicket(
    { subject, body, customerEmail, orderRef: orderId, source: "seed", externalId, routed: { route: claim.route, bundleVersion: claim.bundleVersion, signature } },
    { type: "system", id: actorId },
    g.client,
  );
  // Follow-ups as the helpdesk delivers them, each with its own message id.
  const followUps = "followUps" in episode.ticket ? (episode.ticket.followUps ?? []) : [];
  for (const [i, text] of followUps.entries()) {
    await receiveFollowUp({ ticket: { id: ticket.id }, messageId: `${externalId}-m${i + 2}`, body: text.replaceAll("{order}", orderId ?? ""), channel: "api", client: g.client });
  }
  return { ticketId: ticket.id, orderId };
}
