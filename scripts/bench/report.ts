// The bench's results: one row per measure, its baseline measured in the same run, the ratio and the
// target it is held to. A MISS is a finding, not an error: the command exits non-zero only when a
// measurement could not be taken.

export interface TRow {
  measure: string;
  /** "1,234 refunds/s", "42.0 ms"; or "skipped: …". */
  value: string;
  baseline: string;
  /** Formatted, e.g. "12.3 %" or "4.1×"; empty when there is nothing to compare. */
  ratio: string;
  target: string;
  verdict: "PASS" | "MISS" | "skipped" | "error" | "";
}

/** `value` as a share of `baseline`, formatted as the report prints it: "12.3 %". */
export function percentOf(value: number, baseline: number): string {
  return `${((100 * value) / baseline).toFixed(1)} %`;
}

export class Report {
  readonly rows: TRow[] = [];
  readonly notes: string[] = [];
  errors = 0;

  /** A line printed under the table: what a figure is made of. */
  note(line: string): void {
    this.notes.push(line);
  }

  add(row: TRow): void {
    this.rows.push(row);
    if (row.verdict === "error") this.errors++;
  }

  /** A rate compared with a baseline rate: the ratio as a percentage of the baseline (higher is better). */
  share(m: {
    measure: string;
    value: number;
    unit: string;
    baseline: number;
    baselineLabel: string;
    baselineUnit?: string;
    atLeastPercent: number;
  }): void {
    const percent = (100 * m.value) / m.baseline;
    this.add({
      measure: m.measure,
      value: `${fmt(m.value)} ${m.unit}`,
      baseline: `${m.baselineLabel}: ${fmt(m.baseline)} ${m.baselineUnit ?? m.unit}`,
      ratio: percentOf(m.value, m.baseline),
      target: `≥ ${m.atLeastPercent} %`,
      verdict: percent >= m.atLeastPercent ? "PASS" : "MISS",
    });
  }

  /** A cost compared with a baseline cost: the ratio as a multiple of the baseline (lower is better). */
  multiple(m: { measure: string; value: number; unit: string; baseline: number; baselineLabel: string; atMost: number }): void {
    const times = m.value / m.baseline;
    this.add({
      measure: m.measure,
      value: `${fmt(m.value)} ${m.unit}`,
      baseline: `${m.baselineLabel}: ${fmt(m.baseline)} ${m.unit}`,
      ratio: `${times.toFixed(2)}×`,
      target: `≤ ${m.atMost}×`,
      verdict: times <= m.atMost ? "PASS" : "MISS",
    });
  }

  /** A value held to an absolute limit (lower is better); `baseline` may say what it was measured under. */
  limit(measure: string, value: number, unit: string, below: number, baseline = ""): void {
    this.add({
      measure,
      value: `${fmt(value)} ${unit}`,
      baseline,
      ratio: "",
      target: `< ${below} ${unit}`,
      verdict: value < below ? "PASS" : "MISS",
    });
  }

  skipped(measure: string, why: string): void {
    this.add({ measure, value: `skipped: ${why}`, baseline: "", ratio: "", target: "", verdict: "skipped" });
  }

  error(measure: string, error: unknown): void {
    // Prisma's messages start with the call ("Invalid `prisma.x()` invocation:") and end with the cause.
    const lines = (error instanceof Error ? error.message : String(error))
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    const message = lines.length > 1 && /^Invalid `.*` invocation/.test(lines[0]!) ? lines.at(-1)! : (lines[0] ?? "unknown error");
    this.add({ measure, value: `error: ${message}`, baseline: "", ratio: "", target: "", verdict: "error" });
  }

  print(title: string): void {
    if (this.rows.length === 0) return;
    const head: TRow = { measure: "measure", value: "value", baseline: "baseline", ratio: "ratio", target: "target", verdict: "" };
    const keys = ["measure", "value", "baseline", "ratio", "target"] as const;
    // Skipped and error rows carry a sentence in the value column: it may run past the table.
    const tabular = this.rows.filter((r) => r.verdict !== "skipped" && r.verdict !== "error");
    const width = Object.fromEntries(
      keys.map((k) => [
        k,
        Math.max(
          head[k].length,
          ...tabular.map((r) => r[k].length),
          k === "measure" ? Math.max(...this.rows.map((r) => r.measure.length)) : 0,
        ),
      ]),
    ) as Record<(typeof keys)[number], number>;
    const line = (r: TRow) =>
      (r.verdict === "skipped" || r.verdict === "error"
        ? `${r.measure.padEnd(width.measure)}  ${r.value}`
        : `${keys.map((k) => r[k].padEnd(width[k])).join("  ")}  ${r.verdict}`
      ).trimEnd();
    console.log(`\n${title}\n`);
    console.log(line(head));
    console.log(keys.map((k) => "-".repeat(width[k])).join("  ") + "  -------");
    for (const row of this.rows) console.log(line(row));
    if (this.notes.length) console.log("");
    for (const n of this.notes) console.log(n);
  }
}

/** 1,234 / 56.7 / 0.83: three significant figures or whole numbers with separators. */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString("en-US");
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

export function progress(line: string): void {
  console.log(`  … ${line}`);
}
