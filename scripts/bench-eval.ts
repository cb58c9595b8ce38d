// The grading half of `npm run bench`: 1,000 rule-planner episodes (the dataset's rule episodes,
// repeated under fresh ids) through the real runtime, on grading threads each with its own in-memory
// database: this thread on the migrated and seeded one, each worker thread on a copy of its image.
// Prints the time taken and episodes per second; the target is at least 100 episodes a second
// (GRADING_TARGET_PER_SECOND), start-up included. Graded in a process of its own, started as every
// grading process is (GRADING_V8_FLAGS), as `npm run eval` is; timed inside it, from the dataset loaded.
//
//   npx tsx scripts/bench-eval.ts [episodes] [grading threads]
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { loadDataset } from "../lib/eval/load-dataset";
import { gradeEpisodes } from "../lib/eval/grade-episodes";
import { usesModel } from "../lib/eval/play-episode";
import { GRADING_V8_FLAGS } from "../lib/contracts/grading-flags";
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

/** The grading, in this process. */
async function gradeHere(count: number, workers: number): Promise<TBenchEval> {
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

const RESULT_FLAG = "--result";

/** The grading in a process of its own (this script with RESULT_FLAG), its progress lines passed on. */
export async function benchEval(count = 1000, workers = availableParallelism()): Promise<TBenchEval> {
  const script = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [...GRADING_V8_FLAGS, "--import", "tsx", script, RESULT_FLAG, String(count), String(workers)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(child, "exit") as Promise<[number | null, string | null]>;
  let result: TBenchEval | undefined;
  const lines = createInterface({ input: child.stdout });
  lines.on("line", (line) =>
    line.startsWith(`${RESULT_FLAG} `) ? (result = JSON.parse(line.slice(RESULT_FLAG.length + 1)) as TBenchEval) : console.log(line),
  );
  await once(lines, "close");
  const [code, signal] = await exited;
  if (code !== 0 || !result)
    throw new Error(`the bench's grading process ${code === 0 ? "printed no result" : `stopped (${signal ?? `exit code ${code}`})`}`);
  return result;
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
  const inChild = process.argv[2] === RESULT_FLAG;
  const [count, workers] = [Number(process.argv[inChild ? 3 : 2] ?? 1000), Number(process.argv[inChild ? 4 : 3] ?? availableParallelism())];
  void (inChild ? gradeHere(count, workers) : benchEval(count, workers)).then((r) => {
    console.log(inChild ? `${RESULT_FLAG} ${JSON.stringify(r)}` : describeBenchEval(r));
    process.exit(inChild || r.passed === r.episodes ? 0 : 1);
  });
}
