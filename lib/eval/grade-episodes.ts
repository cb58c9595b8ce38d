// The trajectory grader (trajectory-gate-v1): every episode runs through the real runtime – planner,
// validator, transition rules, policy gate, tools, approvals, executor – on a fresh database, and its
// outcome is compared field by field with the expected one. A failure says exactly what differed.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { newPglite, withSettings } from "../db/pglite";
import { migratedPglite } from "../db/migrated-template";
import type { PrismaClient } from "../../generated/prisma/client";
import { driverRows, openDb, type DbHandle } from "../db";
import { insertCustomerWithOrderCopy, readOrderTemplate, type TOrderTemplate } from "../orders/order-store";
import { intakeBundleKey } from "../env";
import { insertTicket } from "../intake/create-ticket";
import { classifyTicket, BUILTIN_BUNDLE_VERSION } from "../intake/builtin-bundle";
import { signRoute } from "../intake/route-signature";
import { scriptedPlanner, type TPlanner, type TPlannerOutput } from "../agent/planner";
import { rulePlanner } from "../agent/rule-planner";
import { runAgent } from "../agent/run-agent";
import type { TToolSet } from "../agent/tools";
import { plannerSetup } from "../llm/choose-planner";
import type { TLlmConfig } from "../llm/provider";
import { startFakeOpenAI, type TFakeEntry, type TFakeOpenAI } from "../llm/fake-openai-server";
import { decideApproval, DECISION_REFUSALS } from "../approvals/decide-approval";
import { isAppError } from "../contracts/app-error";
import { executeApprovedRefund } from "../ledger/execute-approved-refund";
import { settleApprovedRefund } from "../approvals/settle-refund";
import type { TDataset, TEpisode } from "./episode";
import { explainDifference } from "./episode-diff";

/** This grader's own identity; the manifest's graderVersion must name it (lib/contracts/pins.test.ts). */
export const GRADER_VERSION = "trajectory-gate-v1";
/** The model id model episodes report when they ran against the local fake server. */
export const FAKE_MODEL = "fake-model (local OpenAI-compatible fake)";

export interface TActualOutcome {
  status: string;
  reason: string;
  path: string[];
  citations: string[];
  refunds: number;
  proposal: { decision: string; requiredRole: string | null } | null;
  approval?: string;
  executions?: string[];
}

export interface TEpisodeRow {
  episodeId: string;
  trial: number;
  passed: boolean;
  expected: TEpisode["expect"];
  actual: TActualOutcome | null;
  /** Why it failed, precisely; null when it passed. */
  explanation: string | null;
}

/** Writes the world the episodes are written against into a fresh grading database: for the dataset
 * in eval/, the demo seed (prisma/seed/demo.ts). The caller's to give: the grader knows no seed data. */
export type TGradingWorld = (client: PrismaClient) => Promise<unknown>;

export interface TGradeOptions {
  world: TGradingWorld;
  /**
   * The world's database, opened by the caller (openGradingDatabase) to read it too: this thread
   * grades on it, after dumping the other graders' image from it. The caller closes it.
   */
  database?: DbHandle;
  trials?: number;
  /**
   * Graders at once (default: defaultWorkers): this thread, on the world's database, and one worker
   * thread for each beyond the first, each with its own in-memory database opened from an image of
   * the world. 1 grades in this thread alone. The rows are the same whatever the number: each episode
   * and trial has its own tag from its place in the dataset, and the rows come back in dataset order.
   */
  workers?: number;
  /** The configured model endpoint. Without one, model episodes run against the local fake server. */
  llm?: TLlmConfig;
  onProgress?: (done: number, total: number, row: TEpisodeRow) => void;
}

/**
 * Episodes × trials a worker thread is worth starting for. A worker costs its own module graph and
 * database, about a second and a half of CPU and 400 MB before its first episode, what a few dozen
 * episodes cost to grade: fewer units than this are graded faster, and in far less memory, by one.
 */
export const UNITS_PER_WORKER = 150;

/** Graders for this many units when the caller names no number: the CPUs, one per UNITS_PER_WORKER. */
export function defaultWorkers(units: number): number {
  return Math.max(1, Math.min(availableParallelism(), Math.ceil(units / UNITS_PER_WORKER)));
}

/**
 * PGlite's settings for a grading database, for memory: everything it holds lives in the process. Its
 * data (the migrated schema, the world, a few rows an episode) is a few MB, so 8 MB of shared buffers
 * hold it; more is only memory held per worker. Its write-ahead log is in memory too, in 16 MB
 * segments: by default (max_wal_size 1 GB) a checkpoint comes so rarely that grading a few hundred
 * episodes grows the log by a segment or more, each kept; at 32 MB a checkpoint recycles them.
 * Together, with `npm run eval`'s smaller young generation (package.json), about 100 MB less at the
 * command's peak, at the same speed (docs/performance.md, "Grading").
 */
const GRADING_START = withSettings({ shared_buffers: "8MB", max_wal_size: "32MB", min_wal_size: "32MB" });

const TEMPLATE_ORDERS: Record<string, string> = { tablet: "ORD-1001", laptop: "ORD-1002", flagged: "ORD-1003", old: "ORD-1004" };
const PRESET_OF_ORDER = Object.fromEntries(Object.entries(TEMPLATE_ORDERS).map(([k, v]) => [v, k]));

/**
 * A fresh in-memory database, migrated, with the episodes' world written into it. It starts from the
 * migrated template (migrated-template.ts): PGlite's initdb and the migrations run once per set of
 * migrations, not once per command.
 */
export async function openGradingDatabase(world: TGradingWorld): Promise<DbHandle> {
  const pglite = await migratedPglite({ startParams: GRADING_START });
  const handle = openDb({ kind: "pglite", pglite });
  await world(handle.client);
  return { ...handle, close: async () => (await handle.close(), await pglite.close()) };
}

/**
 * The migrated database with its world, as the data directory's bytes: what each worker opens. In
 * shared memory, so every worker reads the one copy. Creating a database (initdb, the migrations) is
 * the costly part of opening one, in time and in memory; opening an image skips it.
 */
export async function gradingImage(world: DbHandle): Promise<SharedArrayBuffer> {
  const bytes = new Uint8Array(await (await world.pglite!.dumpDataDir("none")).arrayBuffer());
  const image = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(image).set(bytes);
  return image;
}

/** A database opened from a grading image (gradingImage). */
export async function openGradingImage(image: SharedArrayBuffer): Promise<DbHandle> {
  // A Blob takes no view of shared memory: slice() copies into an ordinary buffer.
  const pglite = newPglite({ loadDataDir: new Blob([new Uint8Array(image).slice()]), startParams: GRADING_START });
  const handle = openDb({ kind: "pglite", pglite });
  return { ...handle, close: async () => (await handle.close(), await pglite.close()) };
}

/**
 * One grading database and what its episodes read again and again from the world, which no episode
 * changes (an episode copies its order and writes its own ticket): the seeded tickets, the template
 * orders and the users by role, each read once.
 */
export interface TGradingDb {
  client: PrismaClient;
  seeded: Map<string, { subject: string; body: string; route: "guarded_agent" | "human_review_now" | null; bundleVersion: string | null; orderRef: string | null }>;
  templates: Map<string, TOrderTemplate>;
  users: Map<string, { id: string; role: string }>;
}

export function gradingDb(client: PrismaClient): TGradingDb {
  return { client, seeded: new Map(), templates: new Map(), users: new Map() };
}

interface TWorld {
  ticketId: string;
  orderId: string | null;
}

/** The episode's customer and its copy of the template order (lib/orders/order-store.ts). */
async function copyOrder(g: TGradingDb, templateId: string, tag: string): Promise<string> {
  let template = g.templates.get(templateId);
  if (!template) {
    template = await readOrderTemplate(g.client, templateId);
    g.templates.set(templateId, template);
  }
  const orderId = `ORD-${tag}`;
  await insertCustomerWithOrderCopy(g.client, { template, customerId: `CUS-${tag}`, email: `${tag.toLowerCase()}@eval.example`, orderId });
  return orderId;
}

/** The episode's own ticket, customer and order: no episode sees another's refunds or limits. */
async function materialize(g: TGradingDb, episode: TEpisode, tag: string): Promise<TWorld> {
  let subject: string, body: string, preset: string, route: "guarded_agent" | "human_review_now" | null | undefined, bundleVersion: string | null | undefined;
  let signature: "valid" | "missing" | "forged" = "valid";
  let from: "customer" | "stranger" = "customer";
  if ("seeded" in episode.ticket) {
    const externalId = episode.ticket.seeded;
    let seed = g.seeded.get(externalId);
    if (!seed) {
      const row = await g.client.ticket.findUnique({ where: { externalId }, select: { subject: true, body: true, route: true, bundleVersion: true, orderRef: true } });
      if (!row) throw new Error(`no seeded ticket ${externalId}`);
      seed = row;
      g.seeded.set(externalId, seed);
    }
    ({ subject, body, route, bundleVersion } = seed);
    preset = seed.orderRef ? (PRESET_OF_ORDER[seed.orderRef] ?? "missing") : "none";
    if (seed.orderRef && preset !== "missing") body = body.replaceAll(seed.orderRef, "{order}");
  } else {
    ({ subject, body, route, bundleVersion, signature, from } = episode.ticket);
    preset = episode.ticket.order;
  }

  let orderId: string | null = null;
  if (preset === "missing") orderId = `ORD-MISSING-${tag}`;
  else if (preset !== "none") orderId = await copyOrder(g, TEMPLATE_ORDERS[preset]!, tag);
  body = body.replaceAll("{order}", orderId ?? "");

  const externalId = `eval-${tag}`;
  const claim = { ticketId: externalId, route: route ?? classifyTicket({ subject, body }).route, bundleVersion: bundleVersion ?? BUILTIN_BUNDLE_VERSION };
  const routeSignature = signature === "valid" ? signRoute(claim, intakeBundleKey()) : signature === "forged" ? "0".repeat(64) : null;
  // The ticket and its audit event in one statement (as the intake API writes them).
  const ticket = await insertTicket(
    { subject, body, customerEmail: from === "stranger" ? `stranger-${tag.toLowerCase()}@eval.example` : `${tag.toLowerCase()}@eval.example`, orderRef: orderId, source: "seed", externalId, routed: { route: claim.route, bundleVersion: claim.bundleVersion, signature: routeSignature } },
    { type: "system", id: GRADER_VERSION },
    g.client,
  );
  return { ticketId: ticket.id, orderId };
}

/** `{order}` anywhere in a scripted decision becomes the episode's order id. */
function withOrder(value: unknown, orderId: string): unknown {
  if (typeof value === "string") return value.replaceAll("{order}", orderId);
  if (Array.isArray(value)) return value.map((v) => withOrder(v, orderId));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withOrder(v, orderId)]));
  return value;
}

export function usesModel(episode: TEpisode): boolean {
  return episode.planner === "model" || (typeof episode.planner === "object" && "model" in episode.planner);
}

interface TModelEndpoints {
  configured?: TLlmConfig;
  fake: TFakeOpenAI | null;
}

function plannerFor(episode: TEpisode, world: TWorld, models: TModelEndpoints): { planner: TPlanner; tools: Partial<TToolSet>; model: string | null } {
  if (episode.planner === "rule") return { planner: rulePlanner, tools: {}, model: null };
  if (episode.planner === "model" || "model" in episode.planner) {
    const scripted = episode.planner !== "model";
    const fake = models.fake!;
    fake.reset();
    const entries = scripted ? (withOrder((episode.planner as { model: { fake: unknown[] } }).model.fake, world.orderId ?? "") as TFakeEntry[]) : [];
    fake.push(...entries);
    // The fake answers at once unless an entry says to wait: only an episode about a slow model gets
    // the short client timeout it is written against. The rest get room, so a busy machine (a test
    // run on two cores) cannot turn a prompt local answer into a planner_error.
    const slow = entries.some((entry) => entry !== "auto" && "delayMs" in entry);
    const config = !scripted && models.configured ? models.configured : { baseURL: fake.url, apiKey: "fake", model: FAKE_MODEL, timeoutMs: slow ? 2_000 : 12_000 };
    return plannerSetup("model", config);
  }
  const { scripted, usagePerStep, delayMs } = episode.planner;
  const inner = scriptedPlanner(scripted.map((decision): TPlannerOutput => ({ decision: withOrder(decision, world.orderId ?? ""), usage: usagePerStep })), { wrapped: true });
  if (!delayMs) return { planner: inner, tools: {}, model: null };
  return { planner: { id: "scripted", decide: async (state, signal) => (await new Promise((r) => setTimeout(r, delayMs)), inner.decide(state, signal)) }, tools: {}, model: null };
}

function faultyTools(episode: TEpisode): Partial<TToolSet> {
  const tools: Partial<TToolSet> = {};
  for (const fault of episode.faults ?? []) {
    tools[fault.tool] =
      fault.kind === "hang"
        ? () => new Promise(() => {})
        : fault.kind === "error"
          ? async () => {
              throw new Error(`injected ${fault.tool} failure`);
            }
          : async () => ({ injected: "not the declared observation" });
  }
  return tools;
}

async function play(g: TGradingDb, episode: TEpisode, tag: string, models: TModelEndpoints): Promise<TActualOutcome> {
  const client = g.client;
  const world = await materialize(g, episode, tag);
  const setup = plannerFor(episode, world, models);
  const run = await runAgent({ ticketId: world.ticketId, mode: episode.mode, planner: setup.planner, model: setup.model, budgets: episode.budgets, tools: { ...setup.tools, ...faultyTools(episode) }, client });
  const actual: TActualOutcome = {
    status: run.status,
    reason: run.reason,
    path: run.path,
    citations: run.citations,
    refunds: 0,
    proposal: run.proposal ? { decision: run.proposal.decision, requiredRole: run.proposal.requiredRole } : null,
  };
  if (episode.approval) {
    const a = episode.approval;
    if (!run.approval?.id) actual.approval = "no_approval_request";
    else {
      const request = await client.approvalRequest.findUniqueOrThrow({ where: { id: run.approval.id } });
      let actor = g.users.get(a.as);
      if (!actor) {
        actor = await client.user.findFirstOrThrow({ where: { role: a.as }, select: { id: true, role: true } });
        g.users.set(a.as, actor);
      }
      const now = a.afterExpiry ? new Date(request.expiresAt.getTime() + 1000) : undefined;
      // A refused decision is an outcome to grade; anything else, and anything the execution throws, fails.
      const decided = await decideApproval({ approvalId: request.id, decision: a.decision, digest: request.digest, note: a.note ?? (a.decision === "reject" ? "Rejected by the grader." : null), actor: { id: actor.id, role: a.as }, client, now }).catch(
        (error: unknown) => {
          if (!isAppError(error, ...DECISION_REFUSALS)) throw error;
          actual.approval = error.code;
          return null;
        },
      );
      if (decided) {
        actual.approval = "decided";
        if (decided.refundJobEnqueued) {
          // What the refund job does, done here: the grading database runs no worker.
          actual.executions = [(await settleApprovedRefund({ approvalId: request.id, client, now })).outcome];
          for (let i = 1; i < a.executions; i++) actual.executions.push((await executeApprovedRefund({ approvalId: request.id, actor: { type: "user", id: actor.id }, client, now })).outcome);
        }
      }
    }
  }
  // A refund auto-approved within the dial is executed by its job: settle it as the worker would. The
  // refunds are counted from the ledger, in the same statement when nothing was left to settle.
  const ledger = () =>
    driverRows(
      client,
      `SELECT (SELECT count(*) FROM "LedgerEntry" WHERE "orderId" = $2)::text AS refunds,
              (SELECT string_agg("id"::text, ',') FROM "ApprovalRequest"
                WHERE "ticketId" = $1::uuid AND "kind" = 'refund' AND "status" = 'approved' AND "executionOutcome" IS NULL) AS unsettled`,
      [world.ticketId, world.orderId],
    ).then(([row]) => ({ refunds: Number(row!.refunds), unsettled: row!.unsettled ? row!.unsettled.split(",") : [] }));
  let counted = await ledger();
  if (counted.unsettled.length) {
    for (const approvalId of counted.unsettled) await settleApprovedRefund({ approvalId, client });
    counted = await ledger();
  }
  actual.refunds = world.orderId ? counted.refunds : 0;
  return actual;
}

/** One episode and trial to grade, and its tag: from its place in the dataset, never from who grades it. */
export interface TGradingUnit {
  /** Its place among every episode × trial, from 0: its row's place in the result. */
  index: number;
  episode: number;
  trial: number;
  tag: string;
}

function gradingUnits(dataset: TDataset, trials: number): TGradingUnit[] {
  const units: TGradingUnit[] = [];
  dataset.episodes.forEach((_, episode) => {
    for (let trial = 1; trial <= trials; trial++) units.push({ index: units.length, episode, trial, tag: `EV${String(units.length + 1).padStart(5, "0")}` });
  });
  return units;
}

/**
 * Episodes graded at once on one database. The database runs one statement at a time, but an
 * episode also waits – for a tool that hangs until its timeout, for a scripted planner's delay –
 * and while it waits the others run. Each episode has its own customer, order and ticket, and every
 * time budget an episode is written against is an order of magnitude from what it takes, so the
 * rows are the ones a single lane gives (lib/eval/grade-workers.integration.test.ts).
 */
export const GRADING_LANES = 4;

/**
 * Which unit each grader takes next, shared by every grading thread: two counters in shared memory,
 * one for the units on the model planner and one for the rest, each the place of the next unit to
 * take in its list. A grader that is free takes the next one (Atomics.add), so a thread that started
 * late, or grades more slowly, takes fewer. Which database grades which unit then depends on timing,
 * and does not change its row: an episode has its own customer, order and ticket, and the one thing
 * the episodes of a database share, the day's auto-approved total, stays under its cap for the
 * 1,000 episodes of the bench graded on a single database (`scripts/bench-eval.ts 1000 1` passes them all).
 */
export type TUnitCounters = SharedArrayBuffer;

export function unitCounters(): TUnitCounters {
  return new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
}

/**
 * Grades units on one database, taking each from the shared counters until none is left, in
 * GRADING_LANES lanes; `onRow` hears each row as it is graded. Shared by the grading in this thread
 * and each worker's (grade-worker.ts).
 */
export async function gradeUnits(
  g: TGradingDb,
  episodes: readonly TEpisode[],
  units: readonly TGradingUnit[],
  counters: TUnitCounters,
  llm: TLlmConfig | undefined,
  onRow: (unit: TGradingUnit, row: TEpisodeRow) => void,
): Promise<void> {
  const needsFake = units.some((u) => usesModel(episodes[u.episode]!) && (episodes[u.episode]!.planner !== "model" || !llm));
  const models: TModelEndpoints = { configured: llm, fake: needsFake ? await startFakeOpenAI() : null };
  const gradeOne = async (unit: TGradingUnit) => {
    const episode = episodes[unit.episode]!;
    let row: TEpisodeRow;
    try {
      const actual = await play(g, episode, unit.tag, models);
      const explanation = explainDifference(episode.expect, actual);
      row = { episodeId: episode.id, trial: unit.trial, passed: explanation === null, expected: episode.expect, actual, explanation };
    } catch (error) {
      row = { episodeId: episode.id, trial: unit.trial, passed: false, expected: episode.expect, actual: null, explanation: `the episode could not run: ${error instanceof Error ? error.message : String(error)}` };
    }
    onRow(unit, row);
  };
  // Episodes on the model planner share the thread's one fake server, whose answers are queued per
  // episode: a thread grades them one after another, in a lane of their own. The rest share
  // GRADING_LANES lanes.
  const next = new Int32Array(counters);
  const onFake = units.filter((u) => usesModel(episodes[u.episode]!));
  const rest = units.filter((u) => !usesModel(episodes[u.episode]!));
  const lane = async (queue: readonly TGradingUnit[], counter: number) => {
    for (let unit = queue[Atomics.add(next, counter, 1)]; unit; unit = queue[Atomics.add(next, counter, 1)]) await gradeOne(unit);
  };
  try {
    await Promise.all([lane(onFake, 0), ...Array.from({ length: Math.min(GRADING_LANES, rest.length) }, () => lane(rest, 1))]);
  } finally {
    await models.fake?.close();
  }
}

/** What a grading worker is given when it starts (grade-worker.ts); the image follows as a message. */
export interface TWorkerInput {
  episodes: TEpisode[];
  /** Every unit: the worker takes its next from `counters`, as every grader does. */
  units: TGradingUnit[];
  counters: TUnitCounters;
  llm?: TLlmConfig;
}

/** What a grading worker is sent: the image to open, once it exists. */
export type TWorkerImage = { kind: "image"; image: SharedArrayBuffer };

/** What a grading worker says: a row, or that it is done. */
export type TWorkerMessage = { kind: "row"; index: number; row: TEpisodeRow } | { kind: "done" };

export async function gradeEpisodes(dataset: TDataset, options: TGradeOptions): Promise<TEpisodeRow[]> {
  const units = gradingUnits(dataset, options.trials ?? 1);
  const rows: TEpisodeRow[] = new Array(units.length);
  const graders = Math.max(1, Math.min(options.workers ?? defaultWorkers(units.length), units.length));
  let done = 0;
  const onRow = (unit: TGradingUnit, row: TEpisodeRow) => {
    rows[unit.index] = row;
    options.onProgress?.(++done, units.length, row);
  };
  const counters = unitCounters();
  // The other graders are worker threads. They start first (each loads its own modules, a second or
  // more of CPU) while this thread opens the world's database and makes its image; each opens its own
  // database from the image once it is sent, and this thread grades on the world's database meanwhile.
  const started = Array.from({ length: graders - 1 }, () => startWorker({ episodes: dataset.episodes, units, counters, llm: options.llm }, (index, row) => onRow(units[index]!, row)));
  let handle: DbHandle | undefined;
  try {
    handle = options.database ?? (await openGradingDatabase(options.world));
    if (started.length) {
      // One image, shared by every worker without a copy; made before this thread writes an episode.
      const image = await gradingImage(handle);
      for (const { worker } of started) worker.postMessage({ kind: "image", image } satisfies TWorkerImage);
    }
    await gradeUnits(gradingDb(handle.client), dataset.episodes, units, counters, options.llm, onRow);
  } catch (error) {
    await Promise.all(started.map(({ worker }) => worker.terminate()));
    throw error;
  } finally {
    if (handle && handle !== options.database) await handle.close();
  }
  const results = await Promise.allSettled(started.map(({ finished }) => finished));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return rows;
}

function startWorker(input: TWorkerInput, onRow: (index: number, row: TEpisodeRow) => void): { worker: Worker; finished: Promise<void> } {
  const worker = new Worker(new URL("./grade-worker.mjs", import.meta.url), { workerData: input });
  const finished = new Promise<void>((resolve, reject) => {
    let graded = false;
    worker.on("message", (message: TWorkerMessage) => {
      if (message.kind === "row") onRow(message.index, message.row);
      else graded = true;
    });
    worker.once("error", reject);
    worker.once("exit", (code) => (graded ? resolve() : reject(new Error(`a grading worker stopped (exit code ${code}) before its episodes were graded`))));
  });
  // A worker stopped because the image could not be made is not a second failure to report.
  finished.catch(() => {});
  return { worker, finished };
}
