// A citation names one version of an approved policy document: `<docKey>@<version>`, written in a
// draft in square brackets ("… within 30 days [return-policy-us@2]"). The one pattern for it, used by
// retrieval, both drafters, the runtime's draft check, the tools' observation schema and the pages.

const ID = "[a-z0-9][a-z0-9-]*@\\d+";

/** A whole string that is a citation id. */
export const CITATION_ID = new RegExp(`^${ID}$`);

export function citationOf(docKey: string, version: number): string {
  return `${docKey}@${version}`;
}

/** The citations a text makes, each once, in order of first appearance. */
export function citationsIn(text: string): string[] {
  return [...new Set([...text.matchAll(new RegExp(`\\[(${ID})\\]`, "g"))].map((m) => m[1]!))];
}

/** The text with every bracketed citation replaced by a space (its digits are not the text's numbers). */
export function withoutCitations(text: string): string {
  return text.replace(new RegExp(`\\[${ID}\\]`, "g"), " ");
}

/** The text cut into plain parts and citations: `{ citation }` for each bracketed one. */
export function splitCitations(text: string): ({ text: string } | { citation: string })[] {
  return text
    .split(new RegExp(`(\\[${ID}\\])`, "g"))
    .filter((part) => part !== "")
    .map((part) => (CITATION_ID.test(part.slice(1, -1)) && part.startsWith("[") && part.endsWith("]") ? { citation: part.slice(1, -1) } : { text: part }));
}
