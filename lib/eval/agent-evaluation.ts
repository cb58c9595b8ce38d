// Evaluations of the agent started from the app. A lead (AREAS.evals) asks for one – a dataset of
// eval/, the planner (as each episode is written, or every rule/model episode on one planner), the
// model id for the model planner, trials – and gets a request row, its audit event and its job in one
// transaction. The evaluate-agent job grades it in a process of its own (eval-process.ts: the same
// script as `npm run eval`), writes its progress to the row, and stores the receipt with its release
// decision on the database the job runs on, the running server's. Idempotent: a retried job takes a
// request again from the start, and a finished one is left as it is.
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { z } from "zod";
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";
import { env } from "../env";
import { EVALUATE_AGENT_JOB } from "../jobs/definitions/evaluate-agent";
import { enqueue } from "../jobs/queue";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentManifest } from "../contracts/manifest";
import { decideRelease } from "./decide-release";
import { gradeInProcess, type TEvalOutput, type TEvalProcessOptions } from "./eval-process";
import { writeEvalRun } from "./store-eval-run";
import { loadTeamDataset, TEAM_DATASET, teamPins } from "./team-dataset";

const QUESTION_SET = "questions.jsonl";

/** The episode datasets a lead may choose from (EVAL_DATASET_DIR's `*.jsonl` but the retrieval questions), as paths from the app's root. */
export function evaluationDatasets(): string[] {
  const dir = env().EVAL_DATASET_DIR.replace(/\/+$/, "");
  let files: string[];
  try {
    files = readdirSync(/* turbopackIgnore: true */ dir);
  } catch {
    // No such folder here: nothing to offer (the page says so), rather than a broken page.
    return [];
  }
  return files
    .filter((f) => f.endsWith(".jsonl") && f !== QUESTION_SET)
    .sort()
    .map((f) => `${dir}/${f}`);
}

export const ZEvaluationOptions = z.object({
  dataset: z.string().min(1).max(200),
  planner: z.enum(["as-written", "rule", "model"]),
  /** The model the model planner calls (LLM_MODEL's place); empty: the configured one. */
  model: z
    .string()
    .trim()
    .max(100)
    .regex(/^[\w.:/@-]*$/, "A model id is letters, digits and . : / @ - _ only.")
    .transform((m) => m || null),
  trials: z.coerce.number().int("Trials are a whole number.").min(1, "At least one trial.").max(10, "At most 10 trials from the app."),
});
export type TEvaluationOptions = z.output<typeof ZEvaluationOptions>;

export interface TEvaluationActor {
  id: string;
  role: Role;
}

/** A lead's request: its row, audit event and job, in one transaction. */
export async function startAgentEvaluation(input: {
  options: TEvaluationOptions;
  actor: TEvaluationActor;
  client?: Db;
  /** The datasets to choose from (evaluationDatasets(); a test names a small one of its own). */
  datasets?: readonly string[];
}): Promise<{ requestId: string }> {
  const { options, actor } = input;
  if (!mayUse(actor.role, "evals")) throw new AppError("forbidden", "Your role may not start evaluations.");
  const client = input.client ?? defaultDb();
  if (options.dataset === TEAM_DATASET) {
    if (!(await client.episodeCandidate.count({ where: { status: "promoted" } }))) throw new AppError("invalid", "The team dataset has no promoted episode yet: promote one on the Annotations page.", "dataset");
  } else if (!(input.datasets ?? evaluationDatasets()).includes(options.dataset)) throw new AppError("invalid", `${options.dataset} is not one of the datasets offered (EVAL_DATASET_DIR).`);
  const id = randomUUID();
  await client.$transaction(async (tx) => {
    await tx.evalRequest.create({ data: { id, datasetPath: options.dataset, planner: options.planner, model: options.model, trials: options.trials, startedById: actor.id } });
    await recordAuditEvent(tx, { actorType: "user", actorId: actor.id, action: "evaluation.started", subjectType: "eval_request", subjectId: id, inputs: { ...options } });
    // The job's id is the request's: a second enqueue of it is a no-op.
    await enqueue(tx, EVALUATE_AGENT_JOB, { requestId: id }, { id });
  });
  return { requestId: id };
}

/** How often, at most, the grading's progress is written. */
const PROGRESS_EVERY_MS = 1000;

function progressWriter(client: Db, id: string): (done: number, total: number) => void {
  let last = 0;
  let writing = Promise.resolve();
  return (done, total) => {
    const now = Date.now();
    if (now - last < PROGRESS_EVERY_MS && done < total) return;
    last = now;
    writing = writing.then(() => client.evalRequest.updateMany({ where: { id, status: "running" }, data: { done, total } })).then(
      () => {},
      () => {},
    );
  };
}

type TGrade = (options: TEvalProcessOptions, onProgress: (done: number, total: number) => void) => Promise<TEvalOutput>;

/** The job's work: `queued`/`running` → graded, stored → `done`; or `failed` in words on the last attempt. */
export async function runAgentEvaluation(input: { client: Db; requestId: string; lastAttempt: boolean; grade?: TGrade }): Promise<"done" | "failed" | "not_running"> {
  const { client, requestId } = input;
  const claimed = await client.evalRequest.updateMany({ where: { id: requestId, status: { in: ["queued", "running"] } }, data: { status: "running", done: 0 } });
  if (claimed.count !== 1) return "not_running";
  const request = await client.evalRequest.findUniqueOrThrow({ where: { id: requestId } });
  const options = { dataset: request.datasetPath, planner: request.planner as TEvalProcessOptions["planner"], model: request.model, trials: request.trials };
  let output: TEvalOutput;
  try {
    const grade = input.grade ?? gradeInProcess;
    output = request.datasetPath === TEAM_DATASET ? await gradeTeam(client, options, grade, progressWriter(client, requestId)) : await grade(options, progressWriter(client, requestId));
  } catch (error) {
    if (!input.lastAttempt) throw error;
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    await failRequest(client, requestId, request.startedById, message);
    return "failed";
  }
  const rows = output.receipt.rows.length;
  await client.$transaction(async (tx) => {
    const run = await writeEvalRun(tx, { ...output, createdById: request.startedById });
    await tx.evalRequest.updateMany({ where: { id: requestId, status: "running" }, data: { status: "done", evalRunId: run.id, done: rows, total: rows, finishedAt: new Date() } });
  });
  return "done";
}

/**
 * The team dataset as promoted now, written to a file of its own for the grading process, and the
 * release decided against its own pin (team-dataset.ts) instead of the shipped dataset's.
 */
async function gradeTeam(client: Db, options: TEvalProcessOptions, grade: TGrade, onProgress: (done: number, total: number) => void): Promise<TEvalOutput> {
  const { text, dataset } = await loadTeamDataset(client);
  const dir = await mkdtemp(join(tmpdir(), "countersign-team-"));
  try {
    const path = join(dir, "team.jsonl");
    await writeFile(path, text);
    const output = await grade({ ...options, dataset: path }, onProgress);
    const decision = decideRelease(output.receipt, teamPins(agentManifest(), dataset), { hash: dataset.hash, episodeIds: dataset.episodes.map((e) => e.id) });
    return { ...output, decision };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function failRequest(client: Db, id: string, actorId: string | null, error: string): Promise<void> {
  await client.$transaction(async (tx) => {
    const { count } = await tx.evalRequest.updateMany({ where: { id, status: "running" }, data: { status: "failed", error, finishedAt: new Date() } });
    if (count === 1) await recordAuditEvent(tx, { actorType: "system", actorId: "evaluate-agent", action: "evaluation.failed", subjectType: "eval_request", subjectId: id, inputs: { error, startedById: actorId } });
  });
}

export interface TEvalRequestRow {
  id: string;
  datasetPath: string;
  planner: string;
  model: string | null;
  trials: number;
  status: string;
  done: number;
  total: number;
  error: string | null;
  evalRunId: string | null;
  startedBy: string | null;
  createdAt: Date;
}

/** The latest requests, newest first, for /evals. */
export async function listEvalRequests(client: Db = defaultDb(), take = 10): Promise<TEvalRequestRow[]> {
  const rows = await client.evalRequest.findMany({ orderBy: { createdAt: "desc" }, take, include: { startedBy: { select: { name: true, email: true } } } });
  return rows.map(({ startedBy, startedById: _, finishedAt: __, ...r }) => ({ ...r, startedBy: startedBy ? startedBy.name || startedBy.email : null }));
}
