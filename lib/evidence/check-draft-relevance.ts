// Whether the passages a draft stands on answer the question the ticket asks (rule 6 of the draft
// check, check-draft.ts). A draft can be grounded sentence by sentence and still answer another
// question: a customer asking how long they have to report a parcel that never arrived, answered
// with the 30-day window for damaged electronics, gets words the passage supports and an answer no
// policy gives. Deterministic, like the rest of the check; no model judges a model.
//
// The ticket (subject and body, the order's own words taken out) and each passage (its text and its
// heading, which names the document and the section) are read the same way:
// - phrases that name one thing in many words become one concept: "never arrived", "hasn't come",
//   "lost in the post", "no ha llegado" are all `not_delivered`; "cracked", "won't turn on", "roto"
//   are `damaged`; "credit card", "PayPal", "gift card" are `payment_method`; "sign off", "manager"
//   are `approval` (CONCEPTS);
// - the other words are stems, without stop words, quantities and the words every support ticket
//   uses ("refund", "order", "money", "item", "please": GENERIC).
// Then a draft is off topic (off_topic) when
//   (a) the ticket names a subject – a kind of case a policy is written for (not delivered, damaged,
//       wrong item, warranty, subscription, shipping, price, marketplace seller) – and a
//       passage the draft stands on is written for other subjects only: the damaged-electronics
//       window for a parcel that never arrived. A passage is written for the subjects its heading
//       names ("International shipping: …"), or, when the heading names none, those its text does;
//       a passage naming no subject (where refunds are paid, who approves them) applies to every
//       case; or
//   (b) the ticket has words of its own and the passages share none of them: "who approves refunds?"
//       answered with the return window, "do you ship to Canada?" with the response time. Two stems
//       meet when they are equal or share their first five letters ("devolver", "devolverse").
// A ticket that names nothing (a bare "Refund please.") asks nothing this can hold a passage to.
//
// What it cannot see: a passage on the right subject answering another question about it (the
// response time for missing items, for "how long do I have to report a missing parcel?"), and a
// subject named in words the concepts do not list. Both go through as today; the reviewer reads the
// question beside the draft.
import { contentStems, stem, wordsOf } from "./words";
import { orderTermsRemover } from "./order-terms";
import { isQuantityWord } from "./quantities";

interface TConcept {
  key: string;
  /** A kind of case a policy is written for (rule a); the others only join synonyms (rule b). */
  subject: boolean;
  /** Phrases, as regular-expression sources over lower-cased text, matched as whole words. */
  phrases: string[];
}

const NOT = String.raw`(?:n't|n’t| not)`;

/** In order: a phrase is taken by the first concept that matches it ("never arrived" before "arrive"). */
export const CONCEPTS: TConcept[] = [
  {
    key: "not_delivered",
    subject: true,
    phrases: [
      String.raw`never (?:arrived|came|showed up|turned up|got here|reached me|been delivered|delivered|received)`,
      String.raw`(?:has|have|had|did|does|is|was)${NOT} (?:yet |even )?(?:arrived?|come|came|shown up|turned up|been delivered|delivered|reached me)`,
      String.raw`(?:not|never) (?:yet )?(?:arrived|delivered|received)`,
      String.raw`(?:have|has|did)${NOT} (?:yet )?(?:received?|got|gotten|get) (?:my|the|our|an?|any) (?:order|package|parcel|delivery|shipment|item|box)`,
      String.raw`lost (?:in (?:the )?(?:post|mail|transit)|(?:(?:my|the|our|a) )?(?:order|package|parcel|delivery|shipment)s?)`,
      String.raw`(?:order|package|parcel|delivery|shipment|box)s? (?:was |is |got |has been |have been |went )?(?:lost|stolen|missing)`,
      String.raw`missing|undelivered|where is my (?:order|package|parcel|delivery|shipment)`,
      String.raw`(?:nunca|no) (?:me )?(?:ha |han )?(?:llegado|llegó|llego|recibido|recibí)|(?:paquete|pedido|envío|envio) (?:perdido|extraviado)|extraviad[oa]s?|perdid[oa]s? en (?:el )?(?:correo|envío|transporte)`,
      String.raw`(?:nicht|nie) (?:angekommen|geliefert|zugestellt|erhalten)|verloren(?:gegangen)?`,
      String.raw`(?:jamais|pas|toujours pas) (?:arrivée?s?|reçue?s?|livrée?s?)|(?:colis|commande) (?:perdue?|égarée?)|égarée?s?`,
    ],
  },
  {
    key: "damaged",
    subject: true,
    phrases: [
      String.raw`cracked|crack|broken|broke|damaged?|dented|dent|shattered|defective|faulty|scratched|torn|smashed|dead on arrival`,
      String.raw`(?:not|stopped) working|(?:does|did|do|will|would|wo|can)${NOT} (?:work|turn on|power on|switch on|charge|start)`,
      String.raw`rot[oa]s?|dañad[oa]s?|danad[oa]s?|defectuos[oa]s?|rajad[oa]s?|no (?:funciona|enciende|carga)`,
      String.raw`kaputt|beschädigt|beschaedigt|defekt|zerbrochen|funktioniert nicht|geht nicht (?:mehr )?an`,
      String.raw`cassée?s?|endommagée?s?|abîmée?s?|abimée?s?|défectueu(?:x|se)|fissurée?|ne (?:fonctionne|marche|s'allume) (?:pas|plus)`,
    ],
  },
  {
    key: "wrong_item",
    subject: true,
    phrases: [
      String.raw`wrong (?:item|size|colou?r|product|model|order|one|thing|book|part)|not what i ordered|incorrect (?:item|size|product|model)`,
      String.raw`(?:producto|artículo|articulo|talla|color) (?:equivocad[oa]|incorrect[oa])|no es lo que pedí`,
      String.raw`falsche[nrs]? (?:artikel|größe|farbe|produkt|ware)|nicht (?:das|was ich) bestellt`,
      String.raw`mauvais(?:e)? (?:article|taille|couleur|produit)|pas ce que j'ai commandé`,
    ],
  },
  {
    key: "warranty",
    subject: true,
    phrases: [String.raw`warrant(?:y|ies)|repair(?:s|ed|ing)?|garantía|garantia|reparaci[oó]n|reparar|garantie|reparatur|réparation`],
  },
  {
    key: "subscription",
    subject: true,
    phrases: [String.raw`subscri(?:be|bed|ption|ptions)|membership|auto-?renew(?:al|ed|s)?|suscripci[oó]n|abonnement|mitgliedschaft`],
  },
  {
    // Not a subject: an order, a subscription, a plan or a warranty is cancelled, and which one is the subject.
    key: "cancellation",
    subject: false,
    phrases: [String.raw`cancel(?:s|led|ed|ling|ing|lation)?|cancelar|cancelaci[oó]n|stornier(?:en|ung)|annuler|annulation`],
  },
  {
    key: "shipping",
    subject: true,
    phrases: [
      String.raw`ship(?:s|ped|ping)? (?:to|internationally|abroad|overseas)|(?:shipping|delivery|postage) (?:costs?|fees?|charges?|times?|rates?|options?|methods?|areas?|countries)`,
      String.raw`(?:international|domestic) (?:shipping|delivery)|deliver(?:s|y|ies)? (?:to|abroad|internationally|outside)|countries we (?:ship|deliver) to`,
      String.raw`(?:express|standard|overnight|free) (?:shipping|delivery)|courier|gastos de envío|versandkosten|frais de (?:port|livraison)`,
    ],
  },
  {
    key: "price",
    subject: true,
    phrases: [
      String.raw`price (?:match(?:ing)?|adjustment|drop|guarantee)|cheaper|lower price|coupon|(?:discount|promo|voucher) codes?|promotion`,
    ],
  },
  {
    key: "marketplace",
    subject: true,
    phrases: [String.raw`marketplace|third[- ]party (?:seller|vendor)s?|sold by (?:a|another) (?:seller|vendor)`],
  },
  {
    key: "payment_method",
    subject: false,
    phrases: [
      String.raw`(?:original )?payment method|(?:credit|debit|gift) cards?|store credit|card|paypal|bank account|(?:bank |card )?statement|apple pay|google pay`,
      String.raw`método de pago|tarjeta|zahlungs(?:mittel|methode)|kreditkarte|karte|moyen de paiement|carte(?: bancaire)?`,
    ],
  },
  {
    key: "approval",
    subject: false,
    phrases: [
      String.raw`approv\p{L}*|sign(?:s|ed)? off|manager|supervisor|specialist|authori[sz]\p{L}*|aprob\p{L}*|autoriz\p{L}*|genehmig\p{L}*|approuv\p{L}*`,
    ],
  },
  {
    key: "response",
    subject: false,
    phrases: [
      String.raw`respon(?:d|ds|ded|se|ses)|repl(?:y|ies|ied)|answer(?:s|ed)?|hear back|get back to me|respuestas?|responder|antwort\p{L}*|réponses?|répondre`,
    ],
  },
  {
    key: "money_arrives",
    subject: false,
    phrases: [
      String.raw`reach(?:es|ed)?|arriv(?:e|es|ed|al)|shows? up|see (?:the|my) money|hit my (?:account|card)|llega\p{L}*|ankomm\p{L}*|eingeh\p{L}*|arrivée?`,
    ],
  },
  {
    key: "return",
    subject: false,
    phrases: [
      String.raw`return(?:s|ed|ing)?|(?:send|sent|ship|shipped|mail|bring) (?:it|them|this|that|the \p{L}+) back`,
      String.raw`devol\p{L}*|zurück(?:senden|schicken|geben|gegeben|geschickt)|rücksend\p{L}*|rückgabe|retour\p{L}*|renvo\p{L}*`,
    ],
  },
  { key: "eligible", subject: false, phrases: [String.raw`eligib\p{L}*|ineligib\p{L}*|qualif\p{L}*|elegib\p{L}*|berechtigt|éligible`] },
  {
    key: "report",
    subject: false,
    phrases: [String.raw`report(?:s|ed|ing)?|notif\p{L}*|file a claim|claims?|reclam\p{L}*|melden|meldung|signaler|déclarer`],
  },
];

/** Words every support ticket uses: a passage sharing only these answers nothing in particular. */
const GENERIC = new Set(
  (
    "refund money order item product purchase bought buy thing stuff question issue problem help please thanks thank " +
    "hello want need like would could know tell make take long soon many much still already ever instead back ago " +
    "receive customer support team company possible time today yesterday tomorrow sure able again " +
    "reembolso reembolsar dinero pedido producto artículo articulo compra comprado pregunta problema ayuda favor gracias hola " +
    "quiero tengo puedo para cómo como cuándo cuando cuánto cuanto tiempo mucho todavía " +
    "erstattung rückerstattung geld bestellung artikel produkt frage problem hilfe bitte danke hallo möchte habe kann wann wie lange noch " +
    "remboursement rembourser argent commande produit article question problème aide merci bonjour voudrais puis pour quand comment combien temps encore"
  ).split(" "),
);

const compiled = CONCEPTS.map((c) => ({
  ...c,
  pattern: new RegExp(`(?<![\\p{L}\\d])(?:${c.phrases.join("|")})(?![\\p{L}\\d])`, "gu"),
  token: ` zzconcept${c.key.replace(/_/g, "")} `,
}));
const TOKEN_KEY = new Map(compiled.map((c) => [c.token.trim(), c]));

interface TTerms {
  /** Concept tokens and stems, each with the words it was read from ("never arrived", "lost parcel"). */
  terms: Map<string, string[]>;
  subjects: Set<string>;
}

/** A text's concepts and content stems (this file's header), each with the words it was read from. */
export function topicTerms(text: string): TTerms {
  let rest = ` ${text.toLowerCase().replace(/’/g, "'")} `;
  const terms = new Map<string, string[]>();
  const subjects = new Set<string>();
  const add = (term: string, written: string) => {
    const seen = terms.get(term) ?? [];
    if (!seen.includes(written)) terms.set(term, [...seen, written]);
  };
  for (const c of compiled) {
    rest = rest.replace(c.pattern, (phrase) => {
      add(c.token.trim(), phrase);
      if (c.subject) subjects.add(c.key);
      return c.token;
    });
  }
  for (const word of wordsOf(rest)) {
    if (TOKEN_KEY.has(word) || word.length < 4 || GENERIC.has(word) || GENERIC.has(stem(word)) || isQuantityWord(word)) continue;
    const [content] = contentStems(word);
    if (content) add(content, word);
  }
  return { terms, subjects };
}

/** Whether two terms meet: concept tokens exactly, stems equal or sharing their first five letters. */
function meet(a: string, b: string): boolean {
  if (a === b) return true;
  if (TOKEN_KEY.has(a) || TOKEN_KEY.has(b)) return false;
  return a.length >= 5 && b.length >= 5 && a.slice(0, 5) === b.slice(0, 5);
}

export interface TOffTopic {
  /** The passage written for other subjects (rule a), or the first of those sharing no word (rule b). */
  citation: string;
  /** What the ticket asks about that the passages do not speak of, as the ticket writes it. */
  asked: string[];
}

/**
 * Whether passages answer what a ticket asks (this file's header), or how they do not: null when they
 * do, or when there is nothing to hold them to (no passages, a ticket naming nothing).
 */
export function offTopic(input: {
  question: string;
  passages: readonly { citation: string; text: string; heading?: string }[];
  orderTerms?: string[];
}): TOffTopic | null {
  if (!input.passages.length) return null;
  const ticket = topicTerms(orderTermsRemover(input.orderTerms ?? [])(input.question));
  const read = input.passages.map((p) => {
    const [heading, text] = [topicTerms(p.heading ?? ""), topicTerms(p.text)];
    // A subject the text names in passing ("cancelled", "damaged or missing items") is not what the
    // passage is written for when its heading says what it is.
    const subjects = heading.subjects.size ? heading.subjects : text.subjects;
    return { citation: p.citation, subjects, terms: new Map([...heading.terms, ...text.terms]) };
  });
  const asked = (keys: Iterable<string>) => [...new Set([...keys].flatMap((k) => ticket.terms.get(k)!))].slice(0, 5);
  // (a) A passage written for other subjects than the ticket's.
  const askedSubjects = [...ticket.terms.keys()].filter((k) => ticket.subjects.has(TOKEN_KEY.get(k)?.key ?? ""));
  const elsewhere = read.find((p) => p.subjects.size && ticket.subjects.size && ![...p.subjects].some((s) => ticket.subjects.has(s)));
  if (elsewhere) return { citation: elsewhere.citation, asked: asked(askedSubjects) };
  // (b) Not one of the ticket's own words in any passage.
  if (!ticket.terms.size) return null;
  const shared = [...ticket.terms.keys()].some((t) => read.some((p) => [...p.terms.keys()].some((w) => meet(t, w))));
  return shared ? null : { citation: read[0]!.citation, asked: asked(ticket.terms.keys()) };
}
