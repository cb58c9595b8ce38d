// The grading half of `npm run bench`: 1,000 rule-planner episodes (the dataset's rule episodes,
// repeated under fresh ids) through the real runtime, on grading threads each with its own in-memory
// database: this thread on the migrated and seeded one, each worker thread on a copy of its image.
// Prints the time taken and episodes per second; the target is at least 100 episodes a second
// (GRADING_TARGET_PER_SECOND), start-up included.
//
//   npx tsx scripts/bench-eval.ts [episodes] [grading threads]
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { loadDataset } from "../lib/eval/load-dataset";
import { gradeEpisodes } from "../lib/eval/grade-episodes";
import { usesModel } from "../lib/eval/play-episode";
import type { TDataset } from "../lib/eval/episode";
import { seedDemo } from "../prisma/seed/demo";

/** Episodes a second the grading is held to: fast enough to grade on every change. */
export const GRADING_TARGET_PER_SECOND = 100;

export interface TBenchEval {
  episodes: number;
  workers: number;
  seconds: number;
  perSecond: number;
  perEpisodeMs: number;
  passed: number;
}

export async function benchEval(count = 1000, workers = availableParallelism()): Promise<TBenchEval> {
  const source = await loadDataset("eval/episodes.jsonl");
  const rule = source.episodes.filter((e) => !usesModel(e) && e.planner === "rule");
  const episodes = Array.from({ length: count }, (_, i) => ({ ...rule[i % rule.length]!, id: `${rule[i % rule.length]!.id}-${i}` }));
  const dataset: TDataset = { version: source.version, hash: source.hash, episodes };
  const started = performance.now();
  let last = 0;
  const rows = await gradeEpisodes(dataset, {
    world: seedDemo,
    workers,
    onProgress: (done, total) => {
      if (process.stdout.isTTY && done - last >= 50) {
        last = done;
        process.stdout.write(`\r  graded ${done}/${total}`);
      } else if (!process.stdout.isTTY && done - last >= 250) {
        // Piped to a file or a CI log: a line now and then rather than a carriage-return counter.
        last = done;
        console.log(`  … graded ${done}/${total}`);
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  if (process.stdout.isTTY) process.stdout.write("\n");
  return {
    episodes: rows.length,
    workers: Math.min(workers, rows.length),
    seconds,
    perSecond: rows.length / seconds,
    perEpisodeMs: (seconds * 1000) / rows.length,
    passed: rows.filter((r) => r.passed).length,
  };
}

/** The most memory `npm run eval` may hold at its peak, in MB. */
export const EVAL_PEAK_TARGET_MB = 500;

/**
 * `npm run eval` as a team runs it – the shipped dataset and questions, storing its receipt – on an
 * embedded database of its own (migrated first, in a temporary data directory, removed after), and
 * the peak memory it reports. The configured database is not touched.
 */
export async function evalPeakMemory(): Promise<{ peakMb: number; episodes: string }> {
  const dir = await mkdtemp(join(tmpdir(), "countersign-eval-"));
  const { DATABASE_URL: _url, MIGRATION_DATABASE_URL: _owner, PGLITE_DATA_DIR: _pglite, ...rest } = process.env;
  const env = { ...rest, DATA_DIR: dir };
  const run = promisify(execFile);
  try {
    await run("npm", ["run", "--silent", "db:deploy"], { env });
    const { stdout } = await run("npm", ["run", "--silent", "eval", "--", "--out", join(dir, "receipt.json")], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    const peak = /^Peak memory: (\d+) MB\.$/m.exec(stdout);
    if (!peak) throw new Error(`npm run eval printed no peak memory:\n${stdout.slice(-2000)}`);
    return { peakMb: Number(peak[1]), episodes: /^(\d+\/\d+) episodes passed/m.exec(stdout)?.[1] ?? "?" };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The result in one line, with the target and PASS or MISS. */
export function describeBenchEval(r: TBenchEval): string {
  const verdict = r.perSecond >= GRADING_TARGET_PER_SECOND ? "PASS" : "MISS";
  return `Graded ${r.episodes} rule-planner episodes on ${r.workers} grading thread(s) in ${r.seconds.toFixed(1)} s: ${r.perSecond.toFixed(1)} episodes/s (${r.perEpisodeMs.toFixed(1)} ms each; target ≥ ${GRADING_TARGET_PER_SECOND}/s: ${verdict}); ${r.passed} passed.`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(process.argv[2] ?? 1000);
  const workers = Number(process.argv[3] ?? availableParallelism());
  benchEval(count, workers).then((r) => {
    console.log(describeBenchEval(r));
    process.exit(r.passed === r.episodes ? 0 : 1);
  });
}
