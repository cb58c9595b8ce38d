// Canonical JSON: keys sorted at every depth, no whitespace. Two parties that hash "the same
// operation" must serialise it byte for byte alike (audit chain, approval digests, intake payloads).
// Exactly JSON.stringify of a copy of the value with every object's keys sorted (by UTF-16 code units)
// and its undefined members left out, Dates as their ISO strings – the definition every stored hash was
// made with – written in one pass, without building the copy first (it is on every audited write and
// every approval's digest). A JavaScript object lists its integer-like keys first, in numeric order,
// whatever order they were set in: so the copy did, and so does this ("0" before "", "9" before "10").
import { createHash } from "node:crypto";

export function canonicalJson(value: unknown): string {
  return write(value) as string;
}

/** An integer-like key, as ordinary objects list first (below 2³² − 1). */
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

/** A value's canonical text; undefined where JSON.stringify writes nothing (undefined, a function, a symbol). */
function write(value: unknown): string | undefined {
  if (value === null) return "null";
  if (typeof value !== "object") return JSON.stringify(value);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? "null").join(",")}]`;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return write((value as { toJSON(): unknown }).toJSON());
  const keys = Object.keys(value);
  let indices = 0;
  while (indices < keys.length && ARRAY_INDEX.test(keys[indices]!) && Number(keys[indices]) < 2 ** 32 - 1) indices++;
  const members: string[] = [];
  for (const key of [...keys.slice(0, indices), ...keys.slice(indices).sort()]) {
    const text = write((value as Record<string, unknown>)[key]);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(",")}}`;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
