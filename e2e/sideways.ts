// Whether a page scrolls sideways, and what makes it: the check the accessibility scan runs on every
// page at phone width (e2e/accessibility.spec.ts), and the layout specs on the pages they build.
import type { Page } from "@playwright/test";

export const PHONE = { width: 390, height: 844 } as const;

/** What makes the page scroll sideways: each element that sticks out past the viewport's right edge
 * while its parent does not (the one that spills), named by tag, id, classes and its first words.
 * Elements inside a box that clips or scrolls sideways do not widen the page, and are left out. */
export async function sidewaysCulprits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return [];
    const edge = root.clientWidth + 1;
    const clipped = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== "visible") return true;
      return false;
    };
    const name = (el: Element) => {
      const classes = typeof el.className === "string" && el.className ? `.${el.className.trim().split(/\s+/).slice(0, 4).join(".")}` : "";
      return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${classes}> “${(el.textContent ?? "").trim().slice(0, 40)}”`;
    };
    const culprits = [...document.body.querySelectorAll("*")].filter((el) => {
      if (el.getBoundingClientRect().right <= edge || clipped(el)) return false;
      const parent = el.parentElement;
      return !parent || parent === document.body || parent.getBoundingClientRect().right <= edge;
    });
    return [`scrollWidth ${root.scrollWidth} > clientWidth ${root.clientWidth}`, ...culprits.slice(0, 5).map(name)];
  });
}
