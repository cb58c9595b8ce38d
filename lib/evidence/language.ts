// Which language a question is written in, as far as retrieval needs to know. The approved policy
// documents are English and searched with PostgreSQL's English configuration, so a question in
// another language finds nothing – and "no approved policy covers this" would be the wrong answer:
// the policy may well cover it, in a language the customer did not write in. The evidence service
// says so instead (`unsupported_language`), and a person answers.
//
// Deterministic and small: the most frequent function words of each language. A text is English
// unless another language's words clearly outnumber English ones; short or mixed texts stay English.

/** The languages the approved policy documents are written in. */
export const COVERED_LANGUAGES = ["en"] as const;

const FUNCTION_WORDS: Record<string, readonly string[]> = {
  en: ["the", "and", "is", "it", "my", "i", "to", "of", "a", "was", "with", "for", "can", "you", "not", "this", "that", "have", "how", "what", "when", "arrived", "order", "please", "refund", "return"],
  es: ["el", "la", "los", "las", "y", "es", "mi", "de", "que", "con", "para", "por", "una", "un", "no", "pedido", "llegó", "puedo", "cuándo", "cómo", "reembolso", "devolver", "gracias", "hola", "está", "roto", "rota"],
  fr: ["le", "la", "les", "et", "est", "mon", "ma", "de", "que", "avec", "pour", "une", "un", "pas", "commande", "arrivé", "arrivée", "puis", "je", "remboursement", "retourner", "merci", "bonjour", "cassé", "cassée", "écran"],
  de: ["der", "die", "das", "und", "ist", "mein", "meine", "mit", "für", "ein", "eine", "nicht", "bestellung", "angekommen", "kann", "ich", "rückerstattung", "zurückgeben", "danke", "hallo", "kaputt", "wann", "wie"],
  pt: ["o", "os", "as", "e", "é", "meu", "minha", "de", "que", "com", "para", "uma", "um", "não", "pedido", "chegou", "posso", "reembolso", "devolver", "obrigado", "olá", "quebrado", "quebrada", "quando"],
  it: ["il", "lo", "gli", "e", "è", "mio", "mia", "di", "che", "con", "per", "una", "un", "non", "ordine", "arrivato", "arrivata", "posso", "rimborso", "restituire", "grazie", "ciao", "rotto", "rotta", "quando"],
  nl: ["de", "het", "en", "is", "mijn", "van", "dat", "met", "voor", "een", "niet", "bestelling", "aangekomen", "kan", "ik", "terugbetaling", "terugsturen", "bedankt", "hallo", "kapot", "wanneer"],
};

const SETS = Object.fromEntries(Object.entries(FUNCTION_WORDS).map(([language, words]) => [language, new Set(words)]));

/** The language a text is most likely written in: "en" unless another one clearly leads. */
export function detectLanguage(text: string): string {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const hits: Record<string, number> = {};
  for (const word of words) for (const [language, set] of Object.entries(SETS)) if (set.has(word)) hits[language] = (hits[language] ?? 0) + 1;
  const english = hits.en ?? 0;
  const [best, count] = Object.entries(hits).filter(([language]) => language !== "en").sort((a, b) => b[1] - a[1])[0] ?? ["en", 0];
  // Clearly: at least three of its words, and more than twice the English ones.
  return count >= 3 && count > 2 * english ? best : "en";
}

export function isCoveredLanguage(language: string): boolean {
  return (COVERED_LANGUAGES as readonly string[]).includes(language);
}
