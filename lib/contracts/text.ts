// Text that people and the helpdesk send: what every input schema (actions, routes, intake) holds it
// to before anything reaches the database. PostgreSQL text cannot hold NUL, so a NUL that got through
// would fail the statement and reach the person as `internal`; the other control characters are
// refused with it, since no form field has a use for them and a reviewer could not see them. One
// line allows tab; a text (a note, a reply, a message) allows tab and line breaks.
import { z } from "zod";

// C0 controls, DEL and C1 controls, less the whitespace each kind of field allows.
const CONTROL_IN_LINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
// A UTF-16 surrogate without its pair: JSON's \ud800 escape makes one; no database text can hold it.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface TTextOptions {
  /** Tab and line breaks allowed (a note, a reply); otherwise one line, tab allowed. */
  multiline?: boolean;
  /** The field as a person reads it ("The note"): the message becomes a sentence of its own. */
  label?: string;
}

/** What is wrong with `value` as text a person or a helpdesk may send, or null when nothing is. */
export function textProblem(value: string, options: Pick<TTextOptions, "multiline"> = {}): string | null {
  if (LONE_SURROGATE.test(value)) return "is not valid Unicode text (it holds half of a surrogate pair)";
  const control = (options.multiline ? CONTROL_IN_TEXT : CONTROL_IN_LINE).exec(value);
  if (control) return `must not contain control characters (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")})`;
  return null;
}

/**
 * `schema` refusing control characters (and lone surrogates) with a message on its own field. The
 * check runs on the value as sent, before any trim: a NUL at the end is refused, not trimmed away
 * unseen (trim removes whitespace only, but the rule should not depend on it).
 */
export function plainText<S extends z.ZodType<string, string>>(schema: S, options: TTextOptions = {}): z.ZodPipe<z.ZodString, S> {
  return z
    .string()
    .superRefine((value, ctx) => {
      const problem = textProblem(value, options);
      if (problem) ctx.addIssue({ code: "custom", message: options.label ? `${options.label} ${problem}.` : problem, abort: true });
    })
    .pipe(schema);
}
