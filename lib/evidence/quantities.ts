// Quantities as a draft or a passage writes them, for the numbers rule of the draft check (rule 3e of
// check-draft.ts): a claim of "sixty days", "a year" or "a double refund" is a number as much as "60
// days" is, and must be found in the cited passage or the order like one.
//
// Read here, in English, Spanish, French and German:
// - numbers in digits ("30", "1,200.00") and in words, one to the thousands ("thirty", "twenty-one",
//   "one hundred and twenty", "sesenta", "treinta y uno", "quatre-vingt-dix", "einundzwanzig");
// - a unit after a number, or after "a"/"an"/"un"/"una"/"ein"… ("a year", "una semana"): hours,
//   days, business days, weeks, fortnights, months, years, percent, and "times" ("two times");
// - multipliers: "double", "twice", "triple", "half", "doble", "mitad", "doppelt", "moitié"… (as times).
// Left out on purpose: "one"/"un"/"a" with no unit ("one of our team", "no one", "a refund"), and the
// words that are numbers in one language and ordinary words in another ("once", "sept", "elf", "cent")
// unless a unit follows – a draft saying "once approved" states no eleven.
//
// Two quantities agree when they are the same number in the same unit family: days, weeks and
// fortnights exactly (a fortnight is 14 days, a day 24 hours); a month is 28 to 31 days and a year 365
// to 366 days or 12 months, so "a month" restates "30 days" and "a year" does not; business days only
// with business days; "half" is 50 percent. A number without a unit agrees with the same number in any
// unit ("30" with "30 days"), as digits always have; a number with a unit needs its family.
import { withoutCitations } from "../contracts/citations";

export const UNITS = ["hour", "day", "business_day", "week", "fortnight", "month", "year", "times", "percent"] as const;
export type TUnit = (typeof UNITS)[number];

export interface TQuantity {
  /** The words of the text it was read from ("sixty days", "a year", "double"). */
  written: string;
  value: number;
  unit: TUnit | null;
}

// Maps, not objects: a word such as "constructor" must not find Object.prototype's.
// prettier-ignore
const SMALL = new Map<string, number>(Object.entries({
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30,
  forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
  cero: 0, uno: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10, once: 11,
  doce: 12, trece: 13, catorce: 14, quince: 15, dieciséis: 16, dieciseis: 16, diecisiete: 17, dieciocho: 18, diecinueve: 19,
  veinte: 20, veintiuno: 21, veintiún: 21, veintiuna: 21, veintidós: 22, veintidos: 22, veintitrés: 23, veintitres: 23,
  veinticuatro: 24, veinticinco: 25, veintiséis: 26, veintiseis: 26, veintisiete: 27, veintiocho: 28, veintinueve: 29,
  treinta: 30, cuarenta: 40, cincuenta: 50, sesenta: 60, setenta: 70, ochenta: 80, noventa: 90, cien: 100,
  doscientos: 200, doscientas: 200, trescientos: 300, trescientas: 300, cuatrocientos: 400, cuatrocientas: 400,
  quinientos: 500, quinientas: 500, seiscientos: 600, seiscientas: 600, setecientos: 700, setecientas: 700,
  ochocientos: 800, ochocientas: 800, novecientos: 900, novecientas: 900,
  zéro: 0, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, sept: 7, huit: 8, neuf: 9, dix: 10, onze: 11, douze: 12,
  treize: 13, quatorze: 14, quinze: 15, seize: 16, vingt: 20, vingts: 20, trente: 30, quarante: 40, cinquante: 50, soixante: 60,
  eins: 1, zwei: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9, zehn: 10, elf: 11, zwölf: 12,
  dreizehn: 13, vierzehn: 14, fünfzehn: 15, sechzehn: 16, siebzehn: 17, achtzehn: 18, neunzehn: 19, zwanzig: 20,
  dreißig: 30, dreissig: 30, vierzig: 40, fünfzig: 50, sechzig: 60, siebzig: 70, achtzig: 80, neunzig: 90, un: 1, ein: 1,
}));

/** Words that multiply what comes before them ("two hundred", "dos mil"); one of them alone is one of it. */
// prettier-ignore
const SCALES = new Map<string, number>(Object.entries({
  hundred: 100, thousand: 1000, ciento: 100, mil: 1000, cent: 100, cents: 100, mille: 1000, hundert: 100, tausend: 1000,
}));

/** "one", "a", "un"…: a number only before a unit or a scale ("a year", "a hundred"), never alone. */
const ONE_ALONE = new Set(["one", "a", "an", "un", "uno", "una", "une", "ein", "eine", "einen", "einem", "einer", "eins"]);

/** Numbers in one language and ordinary words in another: read only before a unit. */
const AMBIGUOUS = new Set(["once", "sept", "elf", "cent", "cents", "mil"]);

/** Joins a number's words ("one hundred and twenty", "treinta y uno", "vingt et un"). */
const JOINERS = new Set(["and", "y", "et", "und"]);

// prettier-ignore
const MULTIPLIERS = new Map<string, number>(Object.entries({
  double: 2, doubled: 2, twice: 2, triple: 3, tripled: 3, treble: 3, half: 0.5,
  doble: 2, mitad: 0.5, doppelt: 2, doppelte: 2, doppelten: 2, doppelter: 2, zweifach: 2, dreifach: 3, zweimal: 2, dreimal: 3,
  hälfte: 0.5, halb: 0.5, halbe: 0.5, halben: 0.5, moitié: 0.5,
}));

// prettier-ignore
const UNIT_WORDS = new Map<string, TUnit>(Object.entries({
  hour: "hour", hours: "hour", hora: "hour", horas: "hour", stunde: "hour", stunden: "hour", heure: "hour", heures: "hour",
  day: "day", days: "day", día: "day", días: "day", dia: "day", dias: "day", tag: "day", tage: "day", tagen: "day", jour: "day", jours: "day",
  werktag: "business_day", werktage: "business_day", werktagen: "business_day",
  arbeitstag: "business_day", arbeitstage: "business_day", arbeitstagen: "business_day",
  week: "week", weeks: "week", semana: "week", semanas: "week", woche: "week", wochen: "week", semaine: "week", semaines: "week",
  fortnight: "fortnight", fortnights: "fortnight",
  month: "month", months: "month", mes: "month", meses: "month", monat: "month", monate: "month", monaten: "month", mois: "month",
  year: "year", years: "year", año: "year", años: "year", jahr: "year", jahre: "year", jahren: "year", an: "year", ans: "year",
  année: "year", années: "year",
  times: "times", veces: "times", fois: "times", mal: "times",
  percent: "percent", "%": "percent", prozent: "percent",
} satisfies Record<string, TUnit>));

/** Percent in two words. */
const PERCENT_WORDS = new Set(["per cent", "por ciento", "pour cent"]);

/** Words between a number and its unit that keep its unit ("30 calendar days", "a full year"). */
const UNIT_ADJECTIVES = new Set([
  "calendar",
  "full",
  "whole",
  "single",
  "complete",
  "naturales",
  "completo",
  "completos",
  "volle",
  "vollen",
]);
/** Words that make days business days, before ("business days") or after ("días hábiles") the unit. */
const BUSINESS = new Set(["business", "working", "hábiles", "habiles", "laborables", "ouvrés", "ouvres", "ouvrables"]);

interface TToken {
  word: string;
  start: number;
  end: number;
  /** Only spaces or a hyphen since the token before: a number's words and its unit go on only so. */
  joined: boolean;
}

function tokensOf(text: string): TToken[] {
  let previous = 0;
  return [...text.toLowerCase().matchAll(/\d+(?:,\d{3})*(?:\.\d+)?|%|\p{L}+/gu)].map((m) => {
    const joined = /^[\s-]*$/.test(text.slice(previous, m.index));
    previous = m.index + m[0].length;
    return { word: m[0], start: m.index, end: previous, joined };
  });
}

/** A German number written as one word ("einundzwanzig", "zweihundertfünfzig"), or undefined. */
function germanCompound(word: string): number | undefined {
  for (const [scale, size] of [
    ["tausend", 1000],
    ["hundert", 100],
  ] as const) {
    const at = word.indexOf(scale);
    if (at < 0) continue;
    const left = at ? wordNumber(word.slice(0, at)) : 1;
    const rest = word.slice(at + scale.length);
    const right = rest ? wordNumber(rest) : 0;
    return left !== undefined && right !== undefined ? left * size + right : undefined;
  }
  // "einundzwanzig": a unit, "und", a ten – each a word SMALL holds.
  const und = word.match(
    /^(ein|zwei|drei|vier|fünf|sechs|sieben|acht|neun)und(zwanzig|dreißig|dreissig|vierzig|fünfzig|sechzig|siebzig|achtzig|neunzig)$/,
  );
  return und ? SMALL.get(und[1]!)! + SMALL.get(und[2]!)! : undefined;
}

function wordNumber(word: string): number | undefined {
  return SMALL.get(word) ?? germanCompound(word);
}

const isNumberWord = (word: string) => wordNumber(word) !== undefined || SCALES.has(word) || ONE_ALONE.has(word);

/** The number written in words from tokens[i], and the index after it; undefined when none starts there. */
function numberInWords(tokens: TToken[], i: number): { value: number; next: number } | undefined {
  let total = 0;
  let current = 0;
  let last = Infinity;
  let j = i;
  for (; j < tokens.length && (j === i || tokens[j]!.joined); j++) {
    const word = tokens[j]!.word;
    if (JOINERS.has(word) && j > i) {
      const after = tokens[j + 1] && wordNumber(tokens[j + 1]!.word);
      if (after !== undefined && after < last) continue;
      break;
    }
    const scale = SCALES.get(word);
    // "a"/"an" only start a number ("a hundred"); "one", "uno", "un" also end one ("twenty-one", "vingt et un").
    const article = word === "a" || word === "an";
    const small = ONE_ALONE.has(word) && j === i ? 1 : article ? undefined : wordNumber(word);
    if (scale === 1000) [total, current, last] = [total + (current || 1) * 1000, 0, Infinity];
    else if (scale === 100) [current, last] = [(current || 1) * 100, Infinity];
    // "quatre-vingt": four twenties.
    else if (small === 20 && current === 4 && last === 4) [current, last] = [80, 20];
    else if (small !== undefined && small < last) [current, last] = [current + small, small];
    else break;
  }
  return j > i ? { value: total + current, next: j } : undefined;
}

/** The unit at tokens[i] (after adjectives), with "and a half" and business days read: the index after it. */
function unitAt(tokens: TToken[], i: number): { unit: TUnit; next: number; half: boolean } | null {
  if (!tokens[i]?.joined) return null;
  let j = i;
  let business = false;
  while (tokens[j]?.joined && (UNIT_ADJECTIVES.has(tokens[j]!.word) || BUSINESS.has(tokens[j]!.word))) {
    business ||= BUSINESS.has(tokens[j]!.word);
    j++;
  }
  const pair = tokens.slice(j, j + 2);
  if (pair.length === 2 && pair.every((t) => t.joined) && PERCENT_WORDS.has(`${pair[0]!.word} ${pair[1]!.word}`))
    return { unit: "percent", next: j + 2, half: false };
  let unit = tokens[j]?.joined ? UNIT_WORDS.get(tokens[j]!.word) : undefined;
  if (!unit) return null;
  if (tokens[j + 1]?.joined && BUSINESS.has(tokens[j + 1]!.word)) [business, j] = [true, j + 1];
  if (unit === "day" && business) unit = "business_day";
  const half = halfAt(tokens, j + 1);
  return { unit, next: j + 1 + half, half: half > 0 };
}

/** How many tokens from tokens[i] say "and a half" ("y media", "et demie"): 0 when they do not. */
function halfAt(tokens: TToken[], i: number): number {
  const words = (n: number) => {
    const next = tokens.slice(i, i + n);
    return next.length === n && next.every((t) => t.joined) ? next.map((t) => t.word).join(" ") : "";
  };
  if (words(3) === "and a half") return 3;
  return /^(?:y medi[oa]|et demie?)$/.test(words(2)) ? 2 : 0;
}

/** A multiplier word at tokens[i] ("double", "half"), unless it starts a compound ("double-check"). */
function multiplierAt(text: string, tokens: TToken[], i: number): (TQuantity & { next: number }) | null {
  const token = tokens[i]!;
  const factor = MULTIPLIERS.get(token.word);
  if (factor === undefined || /^-\p{L}/u.test(text.slice(token.end, token.end + 2))) return null;
  // "half a day", "half an hour", "eine halbe Stunde": half of the unit, not a multiplier.
  const article = tokens[i + 1] && ["a", "an"].includes(tokens[i + 1]!.word) ? 1 : 0;
  const unit = factor === 0.5 ? unitAt(tokens, i + 1 + article) : null;
  if (unit && unit.unit !== "times" && unit.unit !== "percent")
    return { written: text.slice(token.start, tokens[unit.next - 1]!.end), value: 0.5, unit: unit.unit, next: unit.next };
  return { written: text.slice(token.start, token.end), value: factor, unit: "times", next: i + 1 };
}

/** The quantity starting at tokens[i], or null; `next` is the first token after it. */
function quantityAt(text: string, tokens: TToken[], i: number): (TQuantity & { next: number }) | null {
  const token = tokens[i]!;
  const digits = /^\d/.test(token.word);
  const words = digits ? { value: Number(token.word.replace(/,/g, "")), next: i + 1 } : numberInWords(tokens, i);
  if (!words) return multiplierAt(text, tokens, i);
  // "two and a half days": the half before the unit.
  const half = halfAt(tokens, words.next);
  const unit = unitAt(tokens, words.next + half);
  const alone = words.next === i + 1 && (ONE_ALONE.has(token.word) || AMBIGUOUS.has(token.word));
  if (!unit && alone && !digits) return null;
  const end = unit ? unit.next : words.next + half;
  return {
    written: text.slice(token.start, tokens[end - 1]!.end),
    value: words.value + (half || unit?.half ? 0.5 : 0),
    unit: unit?.unit ?? null,
    next: end,
  };
}

/** The quantities a text states, in order; citations are not read. */
export function quantitiesIn(raw: string): TQuantity[] {
  const text = withoutCitations(raw);
  const tokens = tokensOf(text);
  const found: TQuantity[] = [];
  for (let i = 0; i < tokens.length;) {
    const q = quantityAt(text, tokens, i);
    if (!q) {
      i++;
      continue;
    }
    found.push({ written: q.written, value: q.value, unit: q.unit });
    i = q.next;
  }
  return found;
}

/** Whether a word is read as (part of) a quantity: such words are the numbers rule's, not content words. */
export function isQuantityWord(word: string): boolean {
  return isNumberWord(word) || MULTIPLIERS.has(word) || UNIT_WORDS.has(word);
}

const HOUR = 1;
const DAY = 24 * HOUR;
/** Each unit as a range of its base (hours for time, one for times and percent): months and years vary. */
const RANGES: Record<TUnit, { family: string; low: number; high: number }> = {
  hour: { family: "time", low: HOUR, high: HOUR },
  day: { family: "time", low: DAY, high: DAY },
  week: { family: "time", low: 7 * DAY, high: 7 * DAY },
  fortnight: { family: "time", low: 14 * DAY, high: 14 * DAY },
  month: { family: "time", low: 28 * DAY, high: 31 * DAY },
  year: { family: "time", low: 365 * DAY, high: 366 * DAY },
  business_day: { family: "business", low: 1, high: 1 },
  times: { family: "ratio", low: 1, high: 1 },
  percent: { family: "ratio", low: 0.01, high: 0.01 },
};

/** Whether `claim` states what `source` does (the agreement in this file's header). */
export function quantitySupports(source: TQuantity, claim: TQuantity): boolean {
  if (claim.unit === null) return source.value === claim.value;
  if (source.unit === null) return false;
  const [a, b] = [RANGES[source.unit], RANGES[claim.unit]];
  if (a.family !== b.family) return false;
  const slack = 1e-9;
  return source.value * a.low <= claim.value * b.high + slack && claim.value * b.low <= source.value * a.high + slack;
}

const UNIT_NAMES: Record<TUnit, [string, string]> = {
  hour: ["hour", "hours"],
  day: ["day", "days"],
  business_day: ["business day", "business days"],
  week: ["week", "weeks"],
  fortnight: ["fortnight", "fortnights"],
  month: ["month", "months"],
  year: ["year", "years"],
  times: ["times", "times"],
  percent: ["percent", "percent"],
};

/** A quantity in one normal form: "60 days", "1 year", "2 times", "1250". */
export function normalQuantity(q: Pick<TQuantity, "value" | "unit">): string {
  const value = String(q.value);
  return q.unit === null ? value : `${value} ${UNIT_NAMES[q.unit][q.value === 1 ? 0 : 1]}`;
}
