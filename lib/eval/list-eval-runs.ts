// Eval runs and release decisions as leads read them: runs newest first, one keyset page at a time,
// each with the release decision stored beside it; the history of release decisions; and one run's
// episode rows, failed first, a page at a time (a run may hold thousands of rows).
import type { Prisma } from "../../generated/prisma/client";
import type { ReleaseOutcome } from "../../generated/prisma/enums";
import { db as defaultDb, type Db } from "../db";
import { keysetOrder, keysetPage, keysetWhere, type TKeysetCursor } from "../db/keyset";

export const EVAL_RUNS_PAGE_SIZE = 20;
export const RELEASE_DECISIONS_SHOWN = 20;
export const EPISODE_PAGE_SIZE = 50;

export interface TDecisionSummary {
  id: string;
  outcome: ReleaseOutcome;
  reason: string | null;
  createdAt: Date;
  decidedBy: string | null;
}

export interface TEvalRunRow {
  id: string;
  createdAt: Date;
  agentVersion: string;
  datasetVersion: string;
  datasetHash: string;
  graderVersion: string;
  modelId: string;
  commit: string;
  trials: number;
  passed: number;
  failed: number;
  createdBy: string | null;
  /** The latest release decision on this run (one is stored with every run). */
  decision: TDecisionSummary | null;
}

const DECISION_SELECT = { id: true, outcome: true, reason: true, createdAt: true, decidedBy: { select: { name: true } } } satisfies Prisma.ReleaseDecisionSelect;
const NEWEST_FIRST = [{ createdAt: "desc" }, { id: "desc" }] satisfies Prisma.ReleaseDecisionOrderByWithRelationInput[];

const RUN_SELECT = {
  id: true,
  createdAt: true,
  agentVersion: true,
  datasetVersion: true,
  datasetHash: true,
  graderVersion: true,
  modelId: true,
  commit: true,
  trials: true,
  passed: true,
  failed: true,
  createdBy: { select: { name: true } },
} satisfies Prisma.EvalRunSelect;

type TSelectedDecision = Prisma.ReleaseDecisionGetPayload<{ select: typeof DECISION_SELECT }>;
type TSelectedRun = Prisma.EvalRunGetPayload<{ select: typeof RUN_SELECT }> & { decisions: TSelectedDecision[] };

const toDecision = (d: TSelectedDecision): TDecisionSummary => ({ id: d.id, outcome: d.outcome, reason: d.reason, createdAt: d.createdAt, decidedBy: d.decidedBy?.name ?? null });

function toRunRow({ createdBy, decisions, ...run }: TSelectedRun): TEvalRunRow {
  return { ...run, createdBy: createdBy?.name ?? null, decision: decisions[0] ? toDecision(decisions[0]) : null };
}

/** Eval runs, newest first, one page beyond the cursor. */
export async function listEvalRuns(input: { cursor?: TKeysetCursor; pageSize?: number; client?: Db } = {}): Promise<{ rows: TEvalRunRow[]; newerCursor: string | null; olderCursor: string | null; total: number }> {
  const client = input.client ?? defaultDb();
  const pageSize = input.pageSize ?? EVAL_RUNS_PAGE_SIZE;
  const [fetched, total] = await Promise.all([
    client.evalRun.findMany({
      where: keysetWhere(input.cursor),
      orderBy: keysetOrder(input.cursor?.direction),
      take: pageSize + 1,
      select: { ...RUN_SELECT, decisions: { orderBy: NEWEST_FIRST, take: 1, select: DECISION_SELECT } },
    }),
    client.evalRun.count(),
  ]);
  const page = keysetPage(fetched, pageSize, input.cursor);
  if (page.reachedNewest && input.cursor) return listEvalRuns({ ...input, cursor: undefined });
  return { rows: page.rows.map(toRunRow), newerCursor: page.newerCursor, olderCursor: page.olderCursor, total };
}

export interface TReleaseDecisionRow extends TDecisionSummary {
  evalRunId: string;
  agentVersion: string;
  datasetVersion: string;
  commit: string;
}

/** The latest release decisions, newest first, and how many there are in all. */
export async function listReleaseDecisions(input: { take?: number; client?: Db } = {}): Promise<{ rows: TReleaseDecisionRow[]; total: number }> {
  const client = input.client ?? defaultDb();
  const [rows, total] = await Promise.all([
    client.releaseDecision.findMany({
      orderBy: NEWEST_FIRST,
      take: input.take ?? RELEASE_DECISIONS_SHOWN,
      select: { ...DECISION_SELECT, evalRun: { select: { id: true, agentVersion: true, datasetVersion: true, commit: true } } },
    }),
    client.releaseDecision.count(),
  ]);
  return {
    rows: rows.map(({ evalRun, ...d }) => ({ ...toDecision(d), evalRunId: evalRun.id, agentVersion: evalRun.agentVersion, datasetVersion: evalRun.datasetVersion, commit: evalRun.commit })),
    total,
  };
}

export interface TEvalRunDetail extends Omit<TEvalRunRow, "decision"> {
  /** Every release decision on this run, newest first. */
  decisions: TDecisionSummary[];
  /** Distinct episodes, and those that failed in at least one trial. */
  episodes: number;
  failedEpisodes: number;
}

/** One eval run with its identity and decisions; null when there is no such run. */
export async function loadEvalRun(input: { id: string; client?: Db }): Promise<TEvalRunDetail | null> {
  const client = input.client ?? defaultDb();
  const run = await client.evalRun.findUnique({
    where: { id: input.id },
    select: { ...RUN_SELECT, decisions: { orderBy: NEWEST_FIRST, select: DECISION_SELECT } },
  });
  if (!run) return null;
  const [episodes, failedEpisodes] = await Promise.all([
    client.episodeResult.groupBy({ by: ["episodeId"], where: { evalRunId: run.id } }),
    client.episodeResult.groupBy({ by: ["episodeId"], where: { evalRunId: run.id, passed: false } }),
  ]);
  const { createdBy, decisions, ...rest } = run;
  return {
    ...rest,
    createdBy: createdBy?.name ?? null,
    decisions: decisions.map(toDecision),
    episodes: episodes.length,
    failedEpisodes: failedEpisodes.length,
  };
}

export type TEpisodeFilter = "all" | "failed" | "passed";

export interface TEpisodeResultRow {
  id: string;
  episodeId: string;
  trial: number;
  passed: boolean;
  expected: unknown;
  actual: unknown;
  explanation: string | null;
}

/**
 * One page of a run's episode rows: failed rows first, then by episode and trial. Pages are numbered
 * from 1; a page past the end is clamped to the last one.
 */
export async function listEpisodeResults(input: { evalRunId: string; filter?: TEpisodeFilter; page?: number; pageSize?: number; client?: Db }): Promise<{
  rows: TEpisodeResultRow[];
  total: number;
  page: number;
  pageCount: number;
}> {
  const client = input.client ?? defaultDb();
  const pageSize = input.pageSize ?? EPISODE_PAGE_SIZE;
  const filter = input.filter ?? "all";
  const where = { evalRunId: input.evalRunId, ...(filter === "all" ? {} : { passed: filter === "passed" }) };
  const total = await client.episodeResult.count({ where });
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.floor(input.page ?? 1)), pageCount);
  const rows = await client.episodeResult.findMany({
    where,
    orderBy: [{ passed: "asc" }, { episodeId: "asc" }, { trial: "asc" }],
    skip: (page - 1) * pageSize,
    take: pageSize,
    select: { id: true, episodeId: true, trial: true, passed: true, expected: true, actual: true, explanation: true },
  });
  return { rows, total, page, pageCount };
}
