// The deterministic drafter: writes the reply only from the context pack and the order, citing
// docKey@version. Every sentence that states a rule, or speaks of money, quotes or restates a cited
// passage (the runtime checks each such sentence against the passage's words: check-draft.ts); the
// uncited ones state order facts only. It quotes only passages the customer may read (staff-only ones
// are for the reviewer), and writes in the language of the passages it quotes – the ticket's, since
// retrieval answers in one language – with its own few sentences in that language.
import { customerPassages, policyWindowDays, refundSupported, ticketIntent } from "./rule-planner";
import { citationsIn } from "../contracts/citations";
import { languageOfLocale } from "../evidence/in-effect";
import type { TRetrievedPassage } from "../evidence/retrieve-passages";
import type { TAgentState, TDraft, TOrderFacts } from "./state";

export function formatMoney(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

/**
 * The drafter's own sentences in each language a ticket can be detected in (language.ts). A quote
 * keeps “…” in every language: the claim check reads a quotation by those marks. The introduction
 * stands on its own line, so the cited line is the passage's words alone.
 */
interface TFraming {
  greeting: (name: string) => string;
  about: (order: string, item: string) => string;
  intro: string;
  closing: [string, string];
}

const FRAMING: Record<string, TFraming> = {
  es: {
    greeting: (name) => `Hola, ${name}:`,
    about: (order, item) => `Gracias por escribirnos sobre el pedido ${order} (${item}).`,
    intro: "Esto es lo que dice nuestra política:",
    closing: ["Un saludo,", "Atención al cliente"],
  },
  fr: {
    greeting: (name) => `Bonjour ${name},`,
    about: (order, item) => `Merci de nous avoir écrit au sujet de la commande ${order} (${item}).`,
    intro: "Voici ce que dit notre politique :",
    closing: ["Cordialement,", "Le service client"],
  },
  de: {
    greeting: (name) => `Hallo ${name},`,
    about: (order, item) => `Vielen Dank für Ihre Nachricht zur Bestellung ${order} (${item}).`,
    intro: "Unsere Richtlinie sagt dazu:",
    closing: ["Mit freundlichen Grüßen", "Ihr Kundenservice"],
  },
  pt: {
    greeting: (name) => `Olá, ${name},`,
    about: (order, item) => `Obrigado por nos escrever sobre o pedido ${order} (${item}).`,
    intro: "Isto é o que diz a nossa política:",
    closing: ["Atenciosamente,", "Atendimento ao cliente"],
  },
  it: {
    greeting: (name) => `Buongiorno ${name},`,
    about: (order, item) => `Grazie per averci scritto riguardo all'ordine ${order} (${item}).`,
    intro: "Ecco cosa dice la nostra politica:",
    closing: ["Cordiali saluti,", "Assistenza clienti"],
  },
  nl: {
    greeting: (name) => `Hallo ${name},`,
    about: (order, item) => `Bedankt voor uw bericht over bestelling ${order} (${item}).`,
    intro: "Dit is wat ons beleid zegt:",
    closing: ["Met vriendelijke groet,", "Klantenservice"],
  },
};

/** The first sentence (or clause before a semicolon) of a customer passage that matches, with its citation. */
function passageSentence(state: TAgentState, pattern: RegExp): { text: string; citation: string } | null {
  for (const p of customerPassages(state)) {
    const sentence = p.text.split(/(?<=[.;])\s+/).find((s) => pattern.test(s));
    if (sentence) return { text: sentence.replace(/[.;]$/, ""), citation: p.citation };
  }
  return null;
}

export function draftReply(state: TAgentState): TDraft {
  const top = customerPassages(state)[0];
  if (!top || state.order?.found !== true) throw new Error("draftReply needs grounded evidence the customer may read and a found order");
  const framing = FRAMING[languageOfLocale(top.locale)];
  const text = framing ? localisedDraft(framing, state.order.order, top) : englishDraft(state, state.order.order, top);
  return { text, citations: citationsIn(text) };
}

/** A reply in another language: the customer passage that answers best, quoted whole. */
function localisedDraft(framing: TFraming, order: TOrderFacts, top: TRetrievedPassage): string {
  const firstName = order.customerName.split(" ")[0]!;
  const quote = `“${top.text}” [${top.citation}]`;
  return [framing.greeting(firstName), "", framing.about(order.id, order.item), framing.intro, quote, "", ...framing.closing].join("\n");
}

function englishDraft(state: TAgentState, order: TOrderFacts, top: TRetrievedPassage): string {
  const firstName = order.customerName.split(" ")[0] ?? "there";
  const lines = [`Hi ${firstName},`, "", `Thank you for writing to us about order ${order.id} (${order.item}).`];
  const window = policyWindowDays(state);

  if (ticketIntent(state.ticket) === "damaged_item" && window) {
    lines.push(
      `I'm sorry it arrived damaged. Electronics that arrive damaged may be returned for a full refund within ${window.days} days of delivery [${window.citation}].`,
    );
    if (refundSupported(state)) {
      // The amount is the order's; where it goes is the passage's, cited (a sentence about money cites).
      const method = passageSentence(state, /original payment method/i);
      const amount = formatMoney(order.refundableCents, order.currency);
      lines.push(
        `Your order was delivered ${order.daysSinceDelivery} days ago, so it qualifies.`,
        method
          ? `We have refunded ${amount} to your original payment method [${method.citation}].`
          : `We have refunded ${amount} in full [${window.citation}].`,
      );
    } else if (order.refundableCents <= 0) {
      lines.push("Our records show this order has already been settled in full.");
    } else {
      lines.push(`Your order was delivered ${order.daysSinceDelivery ?? "an unknown number of"} days ago, which is outside that window.`);
      const rule = passageSentence(state, /not eligible for a refund/i);
      if (rule) lines.push(`${rule.text} [${rule.citation}].`);
      lines.push("A member of our team will look at other options with you, such as a repair under warranty.");
    }
  } else {
    lines.push(`Our policy says: “${top.text}” [${top.citation}]`);
  }
  lines.push("", "Kind regards,", "Customer Support");
  return lines.join("\n");
}
