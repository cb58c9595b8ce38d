import { describe, expect, it } from "vitest";
import { decodeUtf8, parseStrictJson } from "./strict-json";

describe("parseStrictJson", () => {
  it.each([
    ['{"a":1,"b":[true,false,null,"x"],"c":{"d":-1.5e3}}'],
    ["  [ ]  "],
    ['"plain"'],
    ['{"s":"tab\\t, quote \\", unicode \\u00e9 \\ud83d\\ude00, slash \\/"}'],
    ["{}"],
    ["0"],
  ])("reads what JSON.parse reads: %s", (text) => {
    expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it.each([
    ['{"a":1,'],
    ['{"a" 1}'],
    ["{'a':1}"],
    ['{"a":01}'],
    ['{"a":"raw\u0000nul"}'],
    ['{"a":"line\nbreak"}'],
    ['{"a":"\\x41"}'],
    ['{"a":1} {"b":2}'],
    ["[1,]"],
    [""],
    ["tru"],
  ])("refuses what JSON.parse refuses, as a syntax error: %j", (text) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(parseStrictJson(text)).toMatchObject({ ok: false, problem: { kind: "syntax" } });
  });

  it("refuses a key given twice, naming it (JSON.parse keeps the last)", () => {
    const text = '{"subject":"Cracked","body":"x","subject":"Refund me twice"}';
    expect(JSON.parse(text)).toMatchObject({ subject: "Refund me twice" });
    expect(parseStrictJson(text)).toEqual({ ok: false, problem: { kind: "field", path: "subject", message: "is given more than once" } });
    expect(parseStrictJson('{"a":{"b":1,"b":2}}')).toMatchObject({ ok: false, problem: { path: "a.b" } });
    // The same key written with an escape is the same key.
    expect(parseStrictJson('{"ab":1,"\\u0061b":2}')).toMatchObject({ ok: false, problem: { path: "ab" } });
  });

  it.each(["__proto__", "constructor", "prototype"])("refuses the prototype key %s, at any depth", (key) => {
    expect(parseStrictJson(`{"${key}":{"admin":true}}`)).toMatchObject({ ok: false, problem: { kind: "field", path: key } });
    expect(parseStrictJson(`{"a":[{"${key}":1}]}`)).toMatchObject({ ok: false, problem: { kind: "field", path: `a.0.${key}` } });
    expect(parseStrictJson(`{"a":"${key}"}`)).toEqual({ ok: true, value: { a: key } });
  });

  it("refuses nesting past its depth as a field problem, without exhausting the stack", () => {
    expect(parseStrictJson("[".repeat(40) + "]".repeat(40))).toMatchObject({ ok: false, problem: { kind: "field" } });
    expect(parseStrictJson("[".repeat(100_000))).toMatchObject({ ok: false });
  });
});

describe("decodeUtf8", () => {
  it("decodes well-formed UTF-8, a byte-order mark kept as a character", () => {
    expect(decodeUtf8(Buffer.from('{"a":"é😀"}'))).toEqual({ ok: true, text: '{"a":"é😀"}' });
    expect(decodeUtf8(Buffer.from("\ufeff{}"))).toEqual({ ok: true, text: "\ufeff{}" });
  });

  it.each([
    ["a stray continuation byte", [0x80]],
    ["a truncated sequence", [0xe2, 0x82]],
    ["an overlong slash", [0xc0, 0xaf]],
    ["an encoded surrogate", [0xed, 0xa0, 0x80]],
    ["a code point past U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
    ["Latin-1 text", [0x63, 0x61, 0x66, 0xe9]],
  ])("refuses %s, naming the field it sits in", (_label, bytes) => {
    const body = Buffer.concat([Buffer.from('{"subject":"ok","body":"caf'), Buffer.from(bytes), Buffer.from('"}')]);
    expect(body.toString("utf8")).toContain("\ufffd");
    expect(decodeUtf8(body)).toEqual({
      ok: false,
      problem: {
        kind: "field",
        path: "body",
        message: `is not valid UTF-8 (byte ${Buffer.byteLength('{"subject":"ok","body":"caf') + (bytes[0] === 0x63 ? 3 : 0)} of the body)`,
      },
    });
  });

  it("names the body itself when the bad byte is outside any field", () => {
    expect(decodeUtf8(Buffer.from([0x7b, 0xff, 0x7d]))).toMatchObject({ ok: false, problem: { path: "" } });
  });
});
