// Which language a ticket is written in, as far as answering it needs to know. Policies are searched
// and quoted in their own language: a ticket is answered from the documents in effect in its
// language, and a ticket in a language no document in effect is written in is handed to a person as
// `unsupported_language` – "no approved policy covers this" would be the wrong answer, since the
// policy may well cover it in another language.
//
// Deterministic and small: frequent words of each language, counted on the text with its accents
// taken off (customers often leave them out), and the letters and marks only some languages write. A
// text is in a language when at least two of that language's words occur, more than twice as many as
// English ones and more than any other language's; it is English when English words clearly lead;
// otherwise the text does not say. The ticket's body decides; its subject (often a form's words or a
// mail client's) only breaks a tie.
import { driverOf, Prisma, sqlRows, type Db } from "../db";
import { IN_EFFECT_DOCUMENTS } from "./in-effect";

// Words shared by two languages are listed in both: they count for each, and the words only one of
// them uses decide between them. A word common in English ("me", "in", "on", "do", "an") is left out of
// the others' lists and English's own when another language uses it as often.
const FUNCTION_WORDS: Record<string, string> = {
  en:
    "the and is it my i to of a was with for can you not this that have how what when arrived order please refund return " +
    "be did does but your from will would get are if at we our they there been has had just got want need bought still yet " +
    "any which where why could should",
  es:
    "el la los las y es en mi mis de que con para por una un unos unas no pedido llegó llegado puedo cuándo cuando cómo como reembolso " +
    "devolver devolución gracias hola está estoy roto rota del al lo se su sus pero muy ya hace días compra compré envío tengo " +
    "quiero cuál dónde todavía también hay este esta eso porque si nos más quisiera necesito saber pagar tarjeta regalo plazo semanas " +
    "cuánto cuántos cuántas os vuestro vuestra vosotros podéis tenéis hacéis aceptáis estáis abrís devolvéis envíos envío pago",
  fr:
    "le la les et est en mon ma mes de que avec pour une un pas commande arrivé arrivée puis je j qu remboursement retourner " +
    "merci bonjour cassé cassée écran vous nous qui dans sur ne ce cette être avoir ai au aux du des reçu colis livraison retour " +
    "toujours peux pouvez votre vos mais ou déjà encore très carte cadeau",
  de:
    "der die das und ist mein meine meinen meiner mit für ein eine einen nicht bestellung angekommen kann ich rückerstattung " +
    "zurückgeben zurückgeschickt danke hallo kaputt wann wie habe hat auf zu den dem sie wir noch auch aber bitte schon nach bei " +
    "von wurde möchte können könnte ihr ihre geld paket lieferung zahlen bezahlen oder nur mir mich sehr gerne über kündigen geht",
  pt:
    "o os as e é meu minha de que com para uma um não pedido chegou posso reembolso devolver devolução obrigado obrigada olá " +
    "quebrado quebrada quando você do da dos das em ao mas também estou tenho quero compra comprei entrega produto cartão como " +
    "fazer faço já ainda muito onde sim isso esse essa ele ela foi trocar troca",
  it:
    "il lo gli e è mio mia di che con per una un non ordine arrivato arrivata posso rimborso restituire grazie ciao rotto rotta " +
    "quando sono ho del della nel alla anche questo questa buongiorno prodotto consegna reso vorrei sapere quanto tempo ci vuole " +
    "ancora mi già dove perché pagare carta ma",
  nl:
    "de het en is mijn van dat met voor een niet bestelling aangekomen kan ik terugbetaling terugsturen bedankt hallo kapot " +
    "wanneer heb graag wil ook maar nog geld terug hoe wat dank u zijn hebben wordt krijg er naar bij deze dit",
  sv: "och att det som en på är för med jag har inte av till den min mitt när kommer beställning väntat två veckor tack hej så mycket kan vill",
  da: "og at det som en på er for med jeg har ikke af til den min mit hvornår kommer bestilling ventet to uger tak hej så meget kan vil",
  no: "og at det som en på er for med jeg har ikke av til den min mitt når kommer bestilling ventet to uker takk hei så mye kan vil",
  fi: "ja on ei se että hän minä olen kun mutta tilaus tilaukseni milloin kiitos hei voinko palauttaa rahat",
  pl: "i w nie na się że jest do to mi jak co ale czy dzień dobry dziękuję chciałbym chciałabym zamówienie zwrot zwrócić bo być",
};

/**
 * Letters and marks only some languages write, each counted as one of that language's words: a short
 * question ("¿Hacéis envíos a Canarias?") has few function words, and "¿" says Spanish on its own.
 */
const MARKS: Record<string, RegExp> = {
  es: /[¿¡ñ]/gu,
  de: /ß/gu,
  pt: /[ãõ]/gu,
  pl: /[łśćźżąę]/gu,
  sv: /å/gu,
};

/** Lower case without accents: "Cuándo" and "cuando" are one word. */
function plain(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

const SETS = Object.entries(FUNCTION_WORDS).map(([language, words]) => [language, new Set(plain(words).split(" "))] as const);

function wordCounts(text: string): Map<string, number> {
  const hits = new Map<string, number>();
  const add = (language: string, n: number) => n && hits.set(language, (hits.get(language) ?? 0) + n);
  for (const word of plain(text).match(/\p{L}+/gu) ?? []) for (const [language, set] of SETS) if (set.has(word)) add(language, 1);
  for (const [language, marks] of Object.entries(MARKS)) add(language, text.toLowerCase().match(marks)?.length ?? 0);
  return hits;
}

/** The language a text is clearly written in, or null when its words do not say. */
export function clearLanguage(text: string): string | null {
  const hits = wordCounts(text);
  const english = hits.get("en") ?? 0;
  const [best, count] = [...hits].filter(([language]) => language !== "en").sort((a, b) => b[1] - a[1])[0] ?? ["en", 0];
  const runnerUp = [...hits].filter(([language]) => language !== "en" && language !== best).reduce((m, [, n]) => Math.max(m, n), 0);
  if (count >= 2 && count > 2 * english && count > runnerUp) return best;
  if (english >= 3 && english > 2 * count) return "en";
  return null;
}

/** The language a text is most likely written in: English unless another one clearly leads (short or mixed texts stay English). */
export function detectLanguage(text: string): string {
  return clearLanguage(text) ?? "en";
}

/** A ticket's language: its body's; the subject with the body when the body alone does not say; else English. */
export function ticketLanguage(ticket: { subject: string; body: string }): string {
  return clearLanguage(ticket.body) ?? clearLanguage(`${ticket.subject}\n${ticket.body}`) ?? "en";
}

/** Whether documents in effect are written in this language ("es"; a locale's region is ignored). */
export async function isCoveredLanguage(client: Db, language: string): Promise<boolean> {
  const rows = await sqlRows<{ covered: string }>(
    driverOf(client),
    Prisma.sql`SELECT count(*) AS covered FROM ${IN_EFFECT_DOCUMENTS} d WHERE split_part(lower(d.locale), '-', 1) = ${language}`,
  );
  return Number(rows[0]?.covered ?? 0) > 0;
}

/** The languages the documents in effect are written in ("en", "es"): those a ticket can be answered in. */
export async function coveredLanguages(client: Db): Promise<string[]> {
  const rows = await sqlRows<{ language: string }>(
    driverOf(client),
    Prisma.sql`SELECT DISTINCT split_part(lower(d.locale), '-', 1) AS language FROM ${IN_EFFECT_DOCUMENTS} d ORDER BY 1`,
  );
  return rows.map((r) => r.language);
}
