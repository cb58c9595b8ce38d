// A step's arguments or result as a person reads them: every value at its path ("order.amountCents",
// "passages[0].citation"), the fields a reviewer looks for first (the order, the amount, the
// currency, the question, the citations, the decision) ahead of the rest, which keep their order.
// Pure: the stored JSON goes in, rows for a list come out.

/** The fields read first, in this order; snake_case and nested paths match by their camelCase name
 * (order_id and order.id are orderId). */
export const LEADING_FIELDS = [
  "orderId",
  "amountCents",
  "currency",
  "query",
  "question",
  "citation",
  "citations",
  "decision",
  "reasons",
  "status",
  "found",
  "requiredRole",
  "reason",
] as const;

export interface TReadableField {
  /** Where the value sits: "order.amountCents", "passages[1].text"; "" for a value that is not an object. */
  path: string;
  /** The value as text: a string as it is, anything else as JSON. */
  text: string;
  /** One of LEADING_FIELDS. */
  leading: boolean;
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Its rank in LEADING_FIELDS, by its own key or by its last two keys joined (order.id is orderId); -1 when it is not one. */
function rank(keys: readonly string[]): number {
  const own = camel(keys[keys.length - 1] ?? "");
  const parent = camel(keys[keys.length - 2] ?? "");
  const joined = parent ? `${parent}${own.charAt(0).toUpperCase()}${own.slice(1)}` : own;
  const ranks = [own, joined].map((k) => (LEADING_FIELDS as readonly string[]).indexOf(k)).filter((r) => r !== -1);
  return ranks.length ? Math.min(...ranks) : -1;
}

/** Deeper than this a value is shown as JSON. */
const MAX_DEPTH = 4;

function leaves(value: unknown, keys: string[], path: string, out: { keys: string[]; path: string; value: unknown }[]) {
  const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
  const entries = Array.isArray(value)
    ? value.map((v, i) => [`[${i}]`, v] as const)
    : isObject
      ? Object.entries(value as Record<string, unknown>)
      : [];
  // A list of plain values reads best on one line; an empty object or list as itself.
  const plainList = Array.isArray(value) && value.every((v) => v === null || typeof v !== "object");
  if (!entries.length || plainList || keys.length >= MAX_DEPTH) {
    out.push({ keys, path, value });
    return;
  }
  for (const [key, v] of entries) {
    const isIndex = key.startsWith("[");
    leaves(v, isIndex ? keys : [...keys, key], isIndex ? `${path}${key}` : path ? `${path}.${key}` : key, out);
  }
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.length ? value.join(", ") : "[]";
  return JSON.stringify(value ?? null);
}

/** Every field of a stored value, the leading ones first (in LEADING_FIELDS order), then the rest as they were. */
export function readableFields(value: unknown): TReadableField[] {
  const found: { keys: string[]; path: string; value: unknown }[] = [];
  leaves(value, [], "", found);
  const ranked = found.map((f, i) => ({ ...f, i, r: rank(f.keys) }));
  ranked.sort((x, y) => (x.r === -1 ? Infinity : x.r) - (y.r === -1 ? Infinity : y.r) || x.i - y.i);
  return ranked.map((f) => ({ path: f.path, text: asText(f.value), leading: f.r !== -1 }));
}

/** A one-line summary: the first leading fields, "orderId ORD-1001 · amountCents 7900"; at most `max`, each cut to
 * 60 characters. Fields of a list's items are left to the full list: one each would repeat itself. */
export function fieldSummary(fields: readonly TReadableField[], max = 3): string {
  const shown = fields.filter((f) => f.leading && !f.path.includes("[")).slice(0, max);
  const cut = (s: string) => (s.length > 60 ? `${s.slice(0, 59)}…` : s);
  return shown.map((f) => (f.path ? `${f.path} ${cut(f.text)}` : cut(f.text))).join(" · ");
}
