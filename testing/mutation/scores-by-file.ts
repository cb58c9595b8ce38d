// The mutation score of every file a run mutated, from the run's JSON report: Stryker's
// `thresholds.break` holds a run's score as a whole, so a file of few mutants could fall far below
// it behind the others. Fails (exit 1) when any file is below FLOOR, naming it.
//
//   tsx testing/mutation/scores-by-file.ts reports/mutation/rules.json [more reports…]
//
// The score is Stryker's: killed and timed-out mutants over those plus the survivors and the ones no
// test reaches; ignored (static) mutants and compile errors do not count.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { pathToFileURL } from "node:url";

export const FLOOR = 85;

export interface TMutationReport {
  files: Record<string, { mutants: { status: string }[] }>;
  projectRoot?: string;
}

export interface TFileScore {
  file: string;
  detected: number;
  undetected: number;
  score: number;
}

export function scoresByFile(report: TMutationReport): TFileScore[] {
  return Object.entries(report.files).map(([file, { mutants }]) => {
    const count = (...statuses: string[]) => mutants.filter((m) => statuses.includes(m.status)).length;
    const detected = count("Killed", "Timeout");
    const undetected = count("Survived", "NoCoverage");
    const valid = detected + undetected;
    return {
      file: report.projectRoot ? relative(report.projectRoot, file) || file : file,
      detected,
      undetected,
      score: valid ? (100 * detected) / valid : 100,
    };
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const reports = process.argv.slice(2);
  if (!reports.length) {
    console.error("usage: tsx testing/mutation/scores-by-file.ts <report.json>…");
    process.exit(2);
  }
  const below: TFileScore[] = [];
  for (const path of reports) {
    let report: TMutationReport;
    try {
      report = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      console.error(`${path}: cannot read the report (${error instanceof Error ? error.message : error}); run the mutation run first.`);
      process.exit(2);
    }
    for (const s of scoresByFile(report)) {
      console.log(
        `${s.score.toFixed(2).padStart(6)} %  ${String(s.detected).padStart(4)} of ${String(s.detected + s.undetected).padEnd(4)} ${s.file}`,
      );
      if (s.score < FLOOR) below.push(s);
    }
  }
  if (below.length) {
    console.error(`Below ${FLOOR} % on its own: ${below.map((s) => `${s.file} (${s.score.toFixed(2)} %)`).join(", ")}.`);
    process.exit(1);
  }
  console.log(`Every file at or above ${FLOOR} %.`);
}
