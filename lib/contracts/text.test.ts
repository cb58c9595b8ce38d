import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plainText, textProblem } from "./text";

describe("text a person or a helpdesk sends", () => {
  it.each([
    ["NUL", "a\u0000b", "U+0000"],
    ["a bell", "a\u0007b", "U+0007"],
    ["escape", "a\u001bb", "U+001B"],
    ["DEL", "a\u007fb", "U+007F"],
    ["a C1 control", "a\u0085b", "U+0085"],
  ])("refuses %s in a line and in a text", (_label, value, code) => {
    expect(textProblem(value)).toBe(`must not contain control characters (${code})`);
    expect(textProblem(value, { multiline: true })).toBe(`must not contain control characters (${code})`);
  });

  it("allows tab in a line; tab and line breaks in a text only", () => {
    expect(textProblem("a\tb")).toBeNull();
    expect(textProblem("a\nb")).toBe("must not contain control characters (U+000A)");
    expect(textProblem("a\r\nb\tc", { multiline: true })).toBeNull();
    expect(textProblem("Ünïcödé, emoji 🙂 and ‘quotes’", { multiline: true })).toBeNull();
  });

  it("refuses half of a surrogate pair", () => {
    expect(textProblem("a\ud800b")).toMatch(/surrogate/);
    expect(textProblem("🙂".slice(1))).toMatch(/surrogate/);
  });

  it("puts the problem on the field, as a sentence with its label, before the field's own checks", () => {
    const ZForm = z.object({
      note: plainText(z.string().trim().min(1, "Write a note."), { multiline: true, label: "The note" }),
      subject: plainText(z.string().max(5)).optional(),
    });
    const nul = ZForm.safeParse({ note: "see\u0000this", subject: "ok" });
    expect(nul.success).toBe(false);
    expect(z.flattenError(nul.error!).fieldErrors).toEqual({ note: ["The note must not contain control characters (U+0000)."] });
    // A NUL that trim would keep, and one in an optional field without a label.
    expect(z.flattenError(ZForm.safeParse({ note: "\u0000", subject: "a\u0000" }).error!).fieldErrors).toEqual({
      note: ["The note must not contain control characters (U+0000)."],
      subject: ["must not contain control characters (U+0000)"],
    });
    // Clean text goes on to the field's own checks and transforms.
    expect(ZForm.safeParse({ note: "  fine  " })).toEqual({ success: true, data: { note: "fine" } });
    expect(z.flattenError(ZForm.safeParse({ note: " " }).error!).fieldErrors).toEqual({ note: ["Write a note."] });
  });
});
