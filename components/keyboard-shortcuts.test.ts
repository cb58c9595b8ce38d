import { describe, expect, it } from "vitest";
import { isTypingTarget, shortcutFor } from "./keyboard-shortcuts";

const press = (
  key: string,
  target: object | null = { tagName: "BODY" },
  mods: Partial<Record<"ctrlKey" | "metaKey" | "altKey", boolean>> = {},
) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
  target: target as EventTarget,
});

describe("keyboard shortcuts", () => {
  it("move, search and help on the queue; decide and edit on a ticket", () => {
    expect(["j", "k", "/", "?"].map((k) => shortcutFor("queue", press(k)))).toEqual(["next", "previous", "search", "help"]);
    expect(["a", "r", "e", "?"].map((k) => shortcutFor("ticket", press(k)))).toEqual(["approve", "reject", "edit", "help"]);
    // A page's keys are its own: no approving from the queue, no moving on a ticket.
    expect(shortcutFor("queue", press("a"))).toBeNull();
    expect(shortcutFor("ticket", press("j"))).toBeNull();
  });

  it("never fire while typing in a field, or with a modifier held", () => {
    for (const target of [
      { tagName: "INPUT", type: "search" },
      { tagName: "input" },
      { tagName: "TEXTAREA" },
      { tagName: "SELECT" },
      { tagName: "DIV", isContentEditable: true },
    ]) {
      expect(shortcutFor("ticket", press("a", target)), JSON.stringify(target)).toBeNull();
      expect(shortcutFor("queue", press("/", target)), JSON.stringify(target)).toBeNull();
    }
    expect(shortcutFor("ticket", press("a", { tagName: "BODY" }, { ctrlKey: true }))).toBeNull();
    expect(shortcutFor("queue", press("k", { tagName: "BODY" }, { metaKey: true }))).toBeNull();
    // A checkbox or a button takes no text: the page's keys still work there.
    expect(isTypingTarget({ tagName: "INPUT", type: "checkbox" })).toBe(false);
    expect(shortcutFor("queue", press("j", { tagName: "BUTTON" }))).toBe("next");
  });

  it("leave Enter to the browser, which opens the focused link", () => {
    expect(shortcutFor("queue", press("Enter", { tagName: "A" }))).toBeNull();
  });
});
