// What a form says after its action answers: the page's own words for success, and one set of words
// for every failure (lib/auth/action-result.ts), so each page names only what is its own – who may
// do it, what to check when the input was refused.
import type { TActionResult } from "@/lib/auth/action-result";
import type { TErrorCode } from "@/lib/contracts/app-error";

export type TFormMessage = { tone: "ok" | "error"; text: string };

type TFailure = Exclude<TActionResult, { status: "ok" }>;

export interface TFailureWords {
  /** Who may do it, said to someone whose role may not ("Your role may not …"). */
  forbidden: string;
  /** When the input was refused and no message names the problem. */
  invalid: string;
  /** Where an invalid input's message is shown: beside its field (then only the form's own errors
   * here) or here (the first field's message). */
  fieldsShownBeside?: boolean;
  /** Added to "Your session has ended: sign in again." (what happens to what was typed). */
  signedOut?: string;
  /** The page's own words for a refusal, by its code (the page branches on the code, never on the
   * message); any other code shows the server's message. */
  byCode?: Partial<Record<TErrorCode, string>>;
}

export function failureText(state: TFailure, words: TFailureWords): string {
  switch (state.status) {
    case "invalid":
      return (words.fieldsShownBeside ? undefined : Object.values(state.fieldErrors).flat()[0]) ?? state.formErrors[0] ?? words.invalid;
    case "forbidden":
      return words.forbidden;
    case "unauthenticated":
      return `Your session has ended: sign in again.${words.signedOut ? ` ${words.signedOut}` : ""}`;
    case "error":
      return words.byCode?.[state.code] ?? state.message;
  }
}

/** The message for any answer: `ok` words the success, the shared words the rest; null before any. */
export function formMessage<T extends object>(
  state: TActionResult<T> | null | undefined,
  ok: (state: { status: "ok" } & T) => TFormMessage | null,
  words: TFailureWords,
): TFormMessage | null {
  if (!state) return null;
  if (state.status === "ok") return ok(state);
  return { tone: "error", text: failureText(state, words) };
}
