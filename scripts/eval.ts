// npm run eval -- --dataset eval/episodes.jsonl --out reports/refund_agent_v2.json [--trials N] [--workers N] [--no-store]
//                 [--planner as-written|rule|model] [--model MODEL_ID]
// Grades every episode through the real runtime on fresh in-memory databases (one per worker thread,
// --workers, default one per 150 episodes × trials up to the CPU count; the receipt is the same with
// any number), writes the receipt,
// stores it with the release decision in the app's database, and exits 0 only for eligible_for_shadow.
// On the embedded database held by the running server, the receipt is stored through that server
// (POST /api/evals/receipts, with EVAL_SECRET). Started by the evaluate-agent job, it reports its
// progress over the IPC channel it is given (lib/eval/eval-process.ts).
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { runScript } from "./run-script";
import { agentManifest, MANIFEST_PATH } from "../lib/contracts/manifest";
import { describeRetrieval, gradeRetrieval, loadQuestionSet, type TQuestionSet, type TRetrievalScore } from "../lib/eval/grade-retrieval";
import { DatasetError, type TDataset } from "../lib/eval/episode";
import { loadDataset } from "../lib/eval/load-dataset";
import { gradeEpisodes, GRADER_VERSION, type TEpisodeRow } from "../lib/eval/grade-episodes";
import { openGradingDatabase } from "../lib/eval/episode-images";
import { FAKE_MODEL, usesModel } from "../lib/eval/play-episode";
import { llmAvailability, type TLlmConfig } from "../lib/llm/provider";
import { buildReceipt, evaluationCost, passAllTrials } from "../lib/eval/receipt";
import { decideRelease, releasePins } from "../lib/eval/decide-release";
import { storeEvalRun } from "../lib/eval/store-eval-run";
import { seedDemo } from "../prisma/seed/demo";
import { configuredTarget, DataDirInUse, describeDbError, missingEmbeddedDatabase, openDb } from "../lib/db";
import { isPlannerChoice, onPlanner, storeThroughServer, withModel } from "../lib/eval/eval-cli";
import { corpusHash } from "../lib/policy/corpus-hash";

function commit(): string {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "unknown";
  }
}

function progress(done: number, total: number, label: string) {
  process.send?.({ kind: "progress", done, total });
  if (!process.stdout.isTTY) return;
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stdout.write(`\r[${"█".repeat(filled)}${"·".repeat(width - filled)}] ${done}/${total} ${label.padEnd(40).slice(0, 40)}`);
  if (done === total) process.stdout.write("\n");
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      dataset: { type: "string", default: "eval/episodes.jsonl" },
      questions: { type: "string", default: "eval/questions.jsonl" },
      out: { type: "string" },
      trials: { type: "string", default: "1" },
      workers: { type: "string" },
      "no-store": { type: "boolean", default: false },
      planner: { type: "string", default: "as-written" },
      model: { type: "string" },
    },
  });
  if (!isPlannerChoice(values.planner!)) {
    console.error("--planner must be as-written, rule or model.");
    return 2;
  }
  const trials = Number(values.trials);
  if (!Number.isInteger(trials) || trials < 1 || trials > 100) {
    console.error("--trials must be a whole number from 1 to 100.");
    return 2;
  }
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 1 || workers > 64)) {
    console.error("--workers must be a whole number from 1 to 64.");
    return 2;
  }
  // Where the receipt will go is known now: a database that is not there is said before the grading.
  const missing = values["no-store"] ? undefined : missingEmbeddedDatabase(configuredTarget());
  if (missing) {
    console.error(`${missing} Or pass --no-store.`);
    return 2;
  }
  const manifest = agentManifest();
  const dataset = onPlanner(await loadDataset(values.dataset!), values.planner);
  console.log(
    `Grading ${dataset.episodes.length} episodes × ${trials} trial(s) of ${dataset.version} (${dataset.hash.slice(0, 19)}…) with ${GRADER_VERSION}, agent ${manifest.agentVersion}`,
  );
  const llm = withModel(llmAvailability(), values.model);
  const modelEpisodes = dataset.episodes.filter(usesModel).length;
  if (modelEpisodes)
    console.log(
      `${modelEpisodes} model-planner episode(s): ${llm.available ? `${llm.config.model} at ${llm.config.baseURL} (scripted bad answers still use the local fake server)` : "the local fake OpenAI-compatible server (no LLM_BASE_URL set)"}`,
    );
  const questions = await loadQuestionSet(values.questions!);
  const { retrieval, rows, corpus, seconds } = await grade(dataset, questions, {
    workers,
    trials,
    llm: llm.available ? llm.config : undefined,
  });
  const receipt = buildReceipt({
    agentVersion: manifest.agentVersion,
    datasetVersion: dataset.version,
    datasetHash: dataset.hash,
    graderVersion: GRADER_VERSION,
    corpusHash: corpus,
    modelId: !modelEpisodes ? "none (rule planner)" : llm.available ? `${llm.config.model} + ${FAKE_MODEL}` : FAKE_MODEL,
    commit: commit(),
    trials,
    rows,
  });
  const costUsd = evaluationCost(rows);
  const decision = decideRelease(receipt, releasePins(manifest), { hash: dataset.hash, episodeIds: dataset.episodes.map((e) => e.id) });

  const questionsDrift = questions.hash !== manifest.evalQuestionsHash || questions.questions.length !== manifest.evalQuestionsCount;

  const perEpisode = passAllTrials(receipt);
  console.log(`\n${"episode".padEnd(36)} ${"result".padEnd(8)} ${trials > 1 ? `pass^${trials}` : ""}`);
  for (const episode of dataset.episodes) {
    const e = perEpisode.get(episode.id)!;
    console.log(
      `${episode.id.padEnd(36)} ${(e.passAll ? "pass" : "FAIL").padEnd(8)} ${trials > 1 ? `${e.passed}/${e.trials}${e.passAll ? " ✓" : ""}` : ""}`,
    );
  }
  for (const row of rows.filter((r) => !r.passed)) console.log(`\n✗ ${row.episodeId} (trial ${row.trial}): ${row.explanation}`);
  const passAll = [...perEpisode.values()].filter((e) => e.passAll).length;
  console.log(
    `\n${passAll}/${perEpisode.size} episodes passed${trials > 1 ? ` in all ${trials} trials (pass^${trials} = ${(passAll / perEpisode.size).toFixed(3)})` : ""} in ${seconds}s.`,
  );

  console.log(
    `Cost of the graded runs: ${costUsd === null ? "unknown (a model with no price in MODEL_PRICES)" : `${costUsd.toFixed(6)} USD`}.`,
  );
  console.log("");
  for (const line of describeRetrieval(retrieval)) console.log(line);
  if (questionsDrift)
    console.log(
      `The question set is not the one ${MANIFEST_PATH} pins (${questions.questions.length} questions, ${questions.hash.slice(0, 19)}…; pinned ${manifest.evalQuestionsCount}, ${manifest.evalQuestionsHash.slice(0, 19)}…): npm run eval:pin.`,
    );

  if (values.out) {
    await mkdir(dirname(values.out), { recursive: true });
    await writeFile(values.out, JSON.stringify({ receipt, decision, costUsd }, null, 2) + "\n");
    console.log(`Receipt written to ${values.out}.`);
  }
  if (!values["no-store"]) {
    // The grading database is closed, but its WebAssembly memory goes back only when V8 collects it,
    // which it puts off. A last-resort collection here (package.json starts this with --expose-gc)
    // often gives it back before the app's database is opened; when V8 still holds it, the small
    // buffer pool the receipt is stored through keeps the two below the grading's own peak.
    collectGarbage();
    try {
      const run = await storeReceipt({ receipt, decision, costUsd });
      console.log(
        `Receipt stored as eval run ${run.id}${run.through ? ` through the server holding the database (process ${run.through})` : ""}.`,
      );
    } catch (error) {
      const why = describeDbError(error) ?? (error instanceof Error ? error.message.trim().split("\n")[0] : String(error));
      console.error(`Could not store the receipt in the database. ${why} Or pass --no-store.`);
      console.log(peakMemory());
      console.log(`Release decision: ${decision.outcome}${decision.reason ? ` (${decision.reason})` : ""}`);
      return 2;
    }
  }
  console.log(peakMemory());
  console.log(`Release decision: ${decision.outcome}${decision.reason ? ` (${decision.reason})` : ""}`);
  return decision.outcome === "eligible_for_shadow" && !questionsDrift ? 0 : 1;
}

/**
 * The receipt in the app's database, opened for it alone. An embedded database is opened with a
 * small buffer pool (PGlite holds the whole pool in memory from the start, 128 MB by default, for the
 * few rows written here), so the command's peak stays the grading's.
 */
async function storeReceipt(input: Parameters<typeof storeEvalRun>[0]): Promise<{ id: string; through?: number }> {
  const target = configuredTarget();
  let handle: ReturnType<typeof openDb>;
  try {
    handle = openDb(target.kind === "pglite" ? { ...target, sharedBuffers: "16MB" } : target);
  } catch (error) {
    // The running server holds the embedded database: it stores the receipt on it.
    if (!(error instanceof DataDirInUse)) throw error;
    console.log(`The database is in use by process ${error.pid} (the running server?): storing the receipt through it…`);
    return { ...(await storeThroughServer(input)), through: error.pid };
  }
  try {
    return await storeEvalRun({ ...input, client: handle.client });
  } finally {
    await handle.close();
  }
}

/**
 * Retrieval and the episodes, graded on one world: it is seeded once, into one database; the
 * retrieval questions read it first, then the episodes are graded on it (one worker) or on copies of
 * its image (several). The database is closed, and nothing outside this function holds it.
 */
async function grade(
  dataset: TDataset,
  questions: TQuestionSet,
  options: { workers?: number; trials: number; llm?: TLlmConfig },
): Promise<{ retrieval: TRetrievalScore; rows: TEpisodeRow[]; corpus: string; seconds: string }> {
  const started = performance.now();
  const world = await openGradingDatabase(seedDemo);
  // The data directory PGlite was loaded from (a copy of the migrated template, about 45 MB) is
  // garbage once it is unpacked, but V8 would keep it through the whole grading.
  collectGarbage();
  try {
    // The policy text the questions and episodes are answered from, pinned in the receipt.
    const corpus = await corpusHash(world.client);
    // Retrieval on the labelled questions, as the rule planner asks them.
    const retrieval = await gradeRetrieval(questions, { world: seedDemo, database: world });
    const rows = await gradeEpisodes(dataset, {
      world: seedDemo,
      database: world,
      ...options,
      onProgress: (done, total, row) => progress(done, total, `${row.passed ? "✓" : "✗"} ${row.episodeId}`),
    });
    return { retrieval, rows, corpus, seconds: ((performance.now() - started) / 1000).toFixed(1) };
  } finally {
    await world.close();
  }
}

/** The most memory the process has held, in the words the bench reads back (scripts/bench-eval.ts). */
/** A full collection now, when package.json's --expose-gc allows it (a no-op otherwise). */
function collectGarbage(): void {
  (globalThis as { gc?: (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void }).gc?.({
    type: "major",
    execution: "sync",
    flavor: "last-resort",
  });
}

function peakMemory(): string {
  return `Peak memory: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB.`;
}

runScript(main, (error) => (error instanceof DatasetError ? `Dataset error: ${error.message}` : undefined));
