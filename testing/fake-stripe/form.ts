// Stripe's v1 API takes form-encoded bodies with bracketed keys (`metadata[order]=A-1`,
// `expand[0]=charge`); the official client writes them that way. This reads them back into plain
// objects, and gives a canonical text of them so two requests can be compared parameter by parameter
// (the idempotency layer compares parameters, not bytes).

export type TFormValue = string | TFormObject;
export interface TFormObject {
  [key: string]: TFormValue;
}

/** `a[b][c]=v` → { a: { b: { c: "v" } } }; a later duplicate key wins, as on a form. */
export function parseForm(body: string): TFormObject {
  const out: TFormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/[[\]]+/).filter((part) => part !== "");
    let node = out;
    path.slice(0, -1).forEach((part) => {
      const next = node[part];
      node = typeof next === "object" ? next : (node[part] = {});
    });
    const last = path[path.length - 1];
    if (last !== undefined) node[last] = value;
  }
  return out;
}

/** The same parameters give the same text whatever order the client wrote them in. */
export function canonicalForm(value: TFormValue): string {
  if (typeof value === "string") return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalForm(value[k] ?? "")}`).join(",")}}`;
}
