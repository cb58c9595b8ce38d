// Canonical JSON: keys sorted at every depth, no whitespace. Two parties that hash "the same
// operation" must serialise it byte for byte alike (audit chain, approval digests, intake payloads).
import { createHash } from "node:crypto";

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return sortKeys((value as { toJSON(): unknown }).toJSON());
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
  );
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
