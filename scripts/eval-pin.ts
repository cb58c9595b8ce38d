// npm run eval:pin [-- --dataset eval/episodes.jsonl] [--questions eval/questions.jsonl] [--write]
// Prints the pins of the episode dataset (its version, content hash and episode count) and of the
// labelled retrieval questions (content hash and count) as the manifest holds them, and whether the
// manifest agrees. The release gate holds any receipt of a dataset that differs
// from the pin (`dataset_drift`), so a dataset changed on purpose is pinned in the same commit:
// `--write` puts the new pin into contracts/agent_manifest.json.
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { agentManifest, MANIFEST_PATH } from "../lib/contracts/manifest";
import { DatasetError } from "../lib/eval/episode";
import { loadDataset } from "../lib/eval/load-dataset";
import { loadQuestionSet } from "../lib/eval/grade-retrieval";
import { runScript } from "./run-script";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      dataset: { type: "string", default: "eval/episodes.jsonl" },
      questions: { type: "string", default: "eval/questions.jsonl" },
      write: { type: "boolean", default: false },
    },
  });
  const dataset = await loadDataset(values.dataset!);
  const questions = await loadQuestionSet(values.questions!);
  const pin = {
    evalDatasetVersion: dataset.version,
    evalDatasetHash: dataset.hash,
    evalDatasetEpisodes: dataset.episodes.length,
    evalQuestionsHash: questions.hash,
    evalQuestionsCount: questions.questions.length,
  };
  console.log(
    Object.entries(pin)
      .map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`)
      .join(",\n"),
  );
  const manifest = agentManifest();
  const differs = (Object.keys(pin) as (keyof typeof pin)[]).filter((key) => manifest[key] !== pin[key]);
  if (!differs.length) {
    console.log(`${MANIFEST_PATH} already pins these.`);
    return 0;
  }
  if (!values.write) {
    console.log(
      `${MANIFEST_PATH} pins something else (${differs.join(", ")} differ${differs.length === 1 ? "s" : ""}); run with --write to pin this one.`,
    );
    return 1;
  }
  const text = readFileSync(MANIFEST_PATH, "utf8");
  const written = (Object.keys(pin) as (keyof typeof pin)[]).reduce(
    (out, key) => out.replace(new RegExp(`("${key}":\\s*)[^,\\n]+`), `$1${JSON.stringify(pin[key])}`),
    text,
  );
  writeFileSync(MANIFEST_PATH, written);
  console.log(`Pinned in ${MANIFEST_PATH} (${differs.join(", ")}). Commit it with the dataset.`);
  return 0;
}

runScript(main, (error) => (error instanceof DatasetError ? `Dataset error: ${error.message}` : undefined));
