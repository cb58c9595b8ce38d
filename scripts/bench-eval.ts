// The grading half of `npm run bench`: 1,000 rule-planner episodes (the dataset's rule episodes,
// repeated under fresh ids) through the real runtime on a fresh database. Prints the time taken.
import { loadDataset } from "../lib/eval/load-dataset";
import { gradeEpisodes, usesModel } from "../lib/eval/grade-episodes";
import type { TDataset } from "../lib/eval/episode";
import { seedDemo } from "../prisma/seed/demo";

export async function benchEval(count = 1000): Promise<{ episodes: number; seconds: number; perEpisodeMs: number; passed: number }> {
  const source = await loadDataset("eval/episodes.jsonl");
  const rule = source.episodes.filter((e) => !usesModel(e) && e.planner === "rule");
  const episodes = Array.from({ length: count }, (_, i) => ({ ...rule[i % rule.length]!, id: `${rule[i % rule.length]!.id}-${i}` }));
  const dataset: TDataset = { version: source.version, hash: source.hash, episodes };
  const started = performance.now();
  let last = 0;
  const rows = await gradeEpisodes(dataset, {
    world: seedDemo,
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
  return { episodes: rows.length, seconds, perEpisodeMs: (seconds * 1000) / rows.length, passed: rows.filter((r) => r.passed).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(process.argv[2] ?? 1000);
  benchEval(count).then((r) => {
    console.log(`Graded ${r.episodes} rule-planner episodes in ${r.seconds.toFixed(1)} s (${r.perEpisodeMs.toFixed(1)} ms each); ${r.passed} passed.`);
    process.exit(r.passed === r.episodes ? 0 : 1);
  });
}
