// Checks every draft must pass before a person sees it: its citations name approved passages that
// were retrieved for this run, and every amount or number of days in it appears in the cited
// passages or the order. A draft that fails is never shown as grounded. The agent runtime runs these
// checks on every draft in its observation step, whichever tool wrote it (lib/agent/run-agent.ts).
import { citationsIn, withoutCitations } from "../contracts/citations";

/** Numbers as written ("79.00", "1,200", "30") reduced to a canonical form ("79", "1200", "30"). */
export function numbersIn(text: string): string[] {
  const found = withoutCitations(text).match(/\d[\d,]*(?:\.\d+)?/g) ?? [];
  return found.map(canonicalNumber);
}

function canonicalNumber(raw: string): string {
  const plain = raw.replace(/,(?=\d{3}\b)/g, "");
  const n = Number(plain);
  return Number.isFinite(n) ? String(n) : plain;
}

export interface TDraftCheckInput {
  draft: string;
  /** Citations of the passages retrieved for this run (all approved, all current). */
  retrieved: { citation: string; text: string }[];
  /** Numbers the order supports: amounts in currency units, days since delivery, ids. */
  orderNumbers: (string | number)[];
}

export type TDraftProblem =
  | { kind: "no_citation" }
  | { kind: "citation_not_retrieved"; citation: string }
  | { kind: "unsupported_number"; value: string };

export function checkDraft({ draft, retrieved, orderNumbers }: TDraftCheckInput): TDraftProblem[] {
  const problems: TDraftProblem[] = [];
  const cited = citationsIn(draft);
  const retrievedSet = new Set(retrieved.map((r) => r.citation));
  if (!cited.length) problems.push({ kind: "no_citation" });
  for (const citation of cited) if (!retrievedSet.has(citation)) problems.push({ kind: "citation_not_retrieved", citation });
  const allowed = new Set([
    ...retrieved.filter((r) => cited.includes(r.citation)).flatMap((r) => numbersIn(r.text)),
    ...orderNumbers.map((n) => canonicalNumber(String(n))),
  ]);
  for (const value of new Set(numbersIn(draft))) if (!allowed.has(value)) problems.push({ kind: "unsupported_number", value });
  return problems;
}
