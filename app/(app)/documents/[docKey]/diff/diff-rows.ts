// The rows of a line diff as the page shows them: each line numbered in the version it belongs to,
// unchanged stretches longer than the context around a change folded into one row that says how
// many lines it hides.
export interface TLineRun {
  kind: "added" | "removed" | "same";
  text: string;
}

export type TDiffRow =
  | { kind: "added" | "removed" | "same"; text: string; oldLine: number | null; newLine: number | null }
  | { kind: "folded"; lines: number; oldLine: number; newLine: number };

/** A run's lines: its text split at line ends, the last line end starting no line of its own. */
function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

export function diffRows(runs: readonly TLineRun[], context = 3): TDiffRow[] {
  const all: Extract<TDiffRow, { text: string }>[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const run of runs)
    for (const text of linesOf(run.text)) {
      all.push({ kind: run.kind, text, oldLine: run.kind === "added" ? null : oldLine, newLine: run.kind === "removed" ? null : newLine });
      if (run.kind !== "added") oldLine++;
      if (run.kind !== "removed") newLine++;
    }
  const changed = all.map((r, i) => (r.kind === "same" ? -1 : i)).filter((i) => i >= 0);
  const near = (i: number) => changed.some((c) => Math.abs(c - i) <= context);
  const rows: TDiffRow[] = [];
  for (let i = 0; i < all.length;) {
    if (all[i]!.kind !== "same" || near(i)) {
      rows.push(all[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j < all.length && all[j]!.kind === "same" && !near(j)) j++;
    // Folding one line saves nothing: it is shown instead.
    if (j - i === 1) rows.push(all[i]!);
    else rows.push({ kind: "folded", lines: j - i, oldLine: all[i]!.oldLine!, newLine: all[i]!.newLine! });
    i = j;
  }
  return rows;
}
