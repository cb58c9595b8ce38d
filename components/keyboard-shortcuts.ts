// The keyboard's vocabulary, pure so it can be tested without a browser: which key does what on which
// page, and when a key is not a shortcut at all (while typing in a field, or with a modifier held).

export type TShortcutScope = "queue" | "ticket";

/** Asks for the approval confirmation the "a" key opens (a large refund's Approve button sends it). */
export const CONFIRM_APPROVE_EVENT = "countersign:confirm-approve";

export type TShortcut = "next" | "previous" | "search" | "help" | "approve" | "reject" | "edit";

/** What each page answers to, in the order the help lists them, with the words it shows. */
export const SHORTCUTS: Record<TShortcutScope, readonly { key: string; does: TShortcut; words: string }[]> = {
  queue: [
    { key: "j", does: "next", words: "Next ticket" },
    { key: "k", does: "previous", words: "Previous ticket" },
    { key: "Enter", does: "next", words: "Open the ticket in focus" },
    { key: "/", does: "search", words: "Search" },
    { key: "?", does: "help", words: "Show these shortcuts" },
  ],
  ticket: [
    { key: "a", does: "approve", words: "Approve (asks to confirm)" },
    { key: "r", does: "reject", words: "Reject (type the note, then press Reject)" },
    { key: "e", does: "edit", words: "Edit the reply" },
    { key: "?", does: "help", words: "Show these shortcuts" },
  ],
};

/** A target a person is typing into: a key there is text, never a shortcut. */
export function isTypingTarget(target: { tagName?: string; isContentEditable?: boolean; type?: string } | null): boolean {
  if (!target?.tagName) return false;
  const tag = target.tagName.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable) return true;
  if (tag !== "INPUT") return false;
  // Buttons and boxes that take no text do not swallow letters.
  return !["button", "submit", "reset", "checkbox", "radio", "range", "color", "file", "image"].includes(
    (target.type ?? "text").toLowerCase(),
  );
}

/** The shortcut a key press means on a page, or null: typing, a modifier, a key the page does not use.
 * Enter is left to the browser (it opens the focused link); only the letters and / and ? are ours. */
export function shortcutFor(
  scope: TShortcutScope,
  event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; target: EventTarget | null },
): TShortcut | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (isTypingTarget(event.target as Parameters<typeof isTypingTarget>[0])) return null;
  if (event.key === "Enter") return null;
  return SHORTCUTS[scope].find((s) => s.key === event.key)?.does ?? null;
}
