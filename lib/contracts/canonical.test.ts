// Canonical JSON is what the audit chain, approval digests and intake payloads are hashed over: it must
// stay exactly its definition, JSON.stringify of a copy with every object's keys sorted.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical";

/** The definition, written the plain way: a sorted copy, then JSON.stringify. */
function sortedCopy(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return sortedCopy((value as { toJSON(): unknown }).toJSON());
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => [k, sortedCopy((value as Record<string, unknown>)[k])]),
  );
}
const definition = (value: unknown) => JSON.stringify(sortedCopy(value));

describe("canonicalJson", () => {
  it("sorts keys at every depth and leaves out undefined members, as the definition does", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined }], c: "x" }, e: undefined })).toBe('{"a":{"c":"x","d":[3,{"z":1}]},"b":1}');
  });

  it("writes what JSON.stringify writes for the values it treats specially", () => {
    const at = new Date("2026-11-28T09:00:00.000Z");
    const value = { at, list: [undefined, () => 1, Number.NaN, -0, Infinity], fn: () => 1, own: { toJSON: () => ({ b: 2, a: 1 }) }, "é": 1, Z: 2, "😀": 3 };
    expect(canonicalJson(value)).toBe(definition(value));
    expect(canonicalJson(value)).toBe('{"Z":2,"at":"2026-11-28T09:00:00.000Z","list":[null,null,null,0,null],"own":{"a":1,"b":2},"é":1,"😀":3}');
  });

  it("lists integer-like keys first, in numeric order, as the sorted copy it was defined by does", () => {
    const value = { b: 1, "10": 2, "": 3, "9": 4, "01": 5, "4294967295": 6, "4294967294": 7 };
    expect(canonicalJson(value)).toBe(definition(value));
    expect(canonicalJson(value)).toBe('{"9":4,"10":2,"4294967294":7,"":3,"01":5,"4294967295":6,"b":1}');
  });

  it("equals the definition on any JSON value, and on objects holding undefined and dates", () => {
    const leaf = fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.date({ noInvalidDate: true }));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("node")), fc.dictionary(fc.oneof(fc.string(), fc.nat().map(String)), tie("node"))),
    })).node;
    fc.assert(fc.property(value, (v) => canonicalJson(v) === definition(v)), { numRuns: 500 });
  });
});
