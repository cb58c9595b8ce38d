// Which of the navigation's links the bar holds: a pure function of measured widths, so the bar can
// be laid out again whenever its width or its text's width changes (a phone turned, a font loaded).

/**
 * How many links, taken in order, fit in `available` pixels: all of them when they fit side by side;
 * otherwise as many as fit beside the More button that holds the rest (0 when not even one does).
 * `gap` is the space between two neighbours, the More button counted as one of them.
 */
export function linksThatFit({
  available,
  widths,
  gap,
  more,
}: {
  available: number;
  widths: readonly number[];
  gap: number;
  more: number;
}): number {
  const row = (n: number) => widths.slice(0, n).reduce((sum, width) => sum + width, 0) + gap * Math.max(n - 1, 0);
  if (row(widths.length) <= available) return widths.length;
  let n = widths.length - 1;
  while (n > 0 && row(n) + gap + more > available) n -= 1;
  return n;
}
