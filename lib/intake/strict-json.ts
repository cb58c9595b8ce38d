// A JSON reader for bodies from outside, stricter than JSON.parse where JSON.parse is silently
// lenient: a key given twice (JSON.parse keeps the last, so two readers of one signed body may see
// two different tickets), a key that names an object's prototype (`__proto__`, `constructor`,
// `prototype`: harmless to JSON.parse itself, a trap for any code that later copies or indexes by
// the parsed keys), bytes that are not UTF-8 (Buffer#toString turns them into U+FFFD, so what is
// stored is not what was sent), and nesting deep enough to exhaust the stack. Each problem is named
// with the path of the field it is in, so a caller can answer with a field error.
//
// Everything else is JSON.parse's own grammar: string escapes and numbers are decoded by JSON.parse
// on the token itself.

export type TJsonProblem =
  /** Not JSON at all. */
  | { kind: "syntax"; message: string }
  /** JSON, but refused: `path` names the field ("" for the body itself). */
  | { kind: "field"; path: string; message: string };

export type TStrictJson = { ok: true; value: unknown } | { ok: false; problem: TJsonProblem };

/** Keys that reach an object's prototype, or its constructor, when used to index or copy. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

const MAX_DEPTH = 32;

class Refused extends Error {
  constructor(readonly problem: TJsonProblem) {
    super(problem.message);
  }
}

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// A string token's body: anything but a quote, a backslash or a control character, or an escape.
const STRING_BODY = /(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*/y;

function pathOf(path: readonly (string | number)[]): string {
  return path.join(".");
}

class Reader {
  private at = 0;
  private readonly path: (string | number)[] = [];

  constructor(private readonly text: string) {}

  document(): unknown {
    const value = this.value(0);
    this.skipWhitespace();
    if (this.at !== this.text.length) this.syntax("unexpected text after the JSON value");
    return value;
  }

  /** Where the reader stands when the text ends early: the field being read. */
  pathAtEnd(): string {
    try {
      this.document();
    } catch {
      // expected: the text was cut short
    }
    return pathOf(this.path);
  }

  private syntax(what: string): never {
    throw new Refused({ kind: "syntax", message: `${what} at position ${this.at}` });
  }

  private skipWhitespace() {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.test(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH)
      throw new Refused({ kind: "field", path: pathOf(this.path), message: `is nested more than ${MAX_DEPTH} levels deep` });
    this.skipWhitespace();
    const c = this.text[this.at];
    if (c === "{") return this.object(depth);
    if (c === "[") return this.array(depth);
    if (c === '"') return this.string();
    for (const [word, literal] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return literal;
      }
    }
    NUMBER.lastIndex = this.at;
    const number = NUMBER.exec(this.text);
    if (number) {
      this.at = NUMBER.lastIndex;
      return Number(number[0]);
    }
    return this.syntax(c === undefined ? "unexpected end of the body" : "unexpected character");
  }

  private string(): string {
    STRING_BODY.lastIndex = this.at + 1;
    STRING_BODY.test(this.text);
    const end = STRING_BODY.lastIndex;
    if (this.text[end] !== '"') this.syntax(end >= this.text.length ? "unterminated string" : "invalid character or escape in a string");
    const token = this.text.slice(this.at, end + 1);
    this.at = end + 1;
    return token.includes("\\") ? (JSON.parse(token) as string) : token.slice(1, -1);
  }

  private object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.at++;
    this.skipWhitespace();
    if (this.text[this.at] === "}") {
      this.at++;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.at] !== '"') this.syntax("expected a key");
      const key = this.string();
      const field = pathOf([...this.path, key]);
      if (PROTOTYPE_KEYS.has(key))
        throw new Refused({ kind: "field", path: field, message: "is not an accepted key (it names an object's prototype)" });
      if (Object.hasOwn(out, key)) throw new Refused({ kind: "field", path: field, message: "is given more than once" });
      this.skipWhitespace();
      if (this.text[this.at] !== ":") this.syntax("expected ':'");
      this.at++;
      this.path.push(key);
      out[key] = this.value(depth + 1);
      this.path.pop();
      this.skipWhitespace();
      const next = this.text[this.at++];
      if (next === "}") return out;
      if (next !== ",") this.syntax("expected ',' or '}'");
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.at++;
    this.skipWhitespace();
    if (this.text[this.at] === "]") {
      this.at++;
      return out;
    }
    for (;;) {
      this.path.push(out.length);
      out.push(this.value(depth + 1));
      this.path.pop();
      this.skipWhitespace();
      const next = this.text[this.at++];
      if (next === "]") return out;
      if (next !== ",") this.syntax("expected ',' or ']'");
    }
  }
}

/** Parses JSON text, refusing duplicate keys, prototype keys and deep nesting. */
export function parseStrictJson(text: string): TStrictJson {
  try {
    return { ok: true, value: new Reader(text).document() };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, problem: error.problem };
    throw error;
  }
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The bytes as text when they are well-formed UTF-8; otherwise the problem, with the field the first
 * malformed byte sits in (read from the well-formed text before it). A byte-order mark is refused
 * like any other stray character: JSON bodies have none.
 */
export function decodeUtf8(bytes: Uint8Array): { ok: true; text: string } | { ok: false; problem: TJsonProblem } {
  try {
    return { ok: true, text: STRICT_UTF8.decode(bytes) };
  } catch {
    const offset = firstMalformedByte(bytes);
    const before = STRICT_UTF8.decode(bytes.subarray(0, offset));
    return {
      ok: false,
      problem: { kind: "field", path: new Reader(before).pathAtEnd(), message: `is not valid UTF-8 (byte ${offset} of the body)` },
    };
  }
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstMalformedByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let length: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [length, min] = [2, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [length, min] = [3, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [length, min] = [4, 0x10000];
    else return i;
    if (i + length > bytes.length) return i;
    let code = b & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k]!;
      if ((next & 0xc0) !== 0x80) return i;
      code = (code << 6) | (next & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
    if (code < min || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return i;
    i += length;
  }
  return bytes.length;
}
