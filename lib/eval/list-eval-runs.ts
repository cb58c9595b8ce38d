// Eval runs and release decisions as leads read them: runs newest first, one keyset page at a time,
// each with the release decision stored beside it; the history of release decisions; and one run's
// episode rows, failed first, a page at a time (a run may hold thousands of rows).
import type { ReleaseOutcome } from "../../generated/prisma/enums";
import { db as defaultDb, Prisma, type Db } from "../db";
import { keysetPage, type TKeysetCursor } from "../db/keyset";

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

const toDecision = (d: TSelectedDecision): TDecisionSummary => ({ id: d.id, outcome: d.outcome, reason: d.reason, createdAt: d.createdAt, decidedBy: d.decidedBy?.name ?? null });

// The two lists the evaluations page reads on every view are one statement each: the page of rows
// with the names and the latest decision joined in, and the total as a column of every row (one count
// for the statement). Prisma's include would be three and two dependent round trips plus a count.

/** A UTC timestamp literal for the "timestamp without time zone" columns (see handoffReasonsByDay). */
const utcTimestamp = (at: Date) => at.toISOString().slice(0, 23).replace("T", " ");

/** keysetWhere for the runs aliased `r`, with the same redundant bound that lets the scan start at the cursor. */
function runsBeyond(cursor: TKeysetCursor | undefined): Prisma.Sql {
  if (!cursor) return Prisma.sql`true`;
  const at = utcTimestamp(cursor.createdAt);
  return cursor.direction === "older"
    ? Prisma.sql`r."createdAt" <= ${at}::timestamp AND (r."createdAt" < ${at}::timestamp OR (r."createdAt" = ${at}::timestamp AND r.id < ${cursor.id}::uuid))`
    : Prisma.sql`r."createdAt" >= ${at}::timestamp AND (r."createdAt" > ${at}::timestamp OR (r."createdAt" = ${at}::timestamp AND r.id > ${cursor.id}::uuid))`;
}

interface TRunSqlRow extends Omit<TEvalRunRow, "decision"> {
  decisionId: string | null;
  outcome: ReleaseOutcome | null;
  reason: string | null;
  decidedAt: Date | null;
  decidedBy: string | null;
  total: number;
}

const runRow = ({ decisionId, outcome, reason, decidedAt, decidedBy, total: _total, ...run }: TRunSqlRow): TEvalRunRow => ({
  ...run,
  decision: decisionId && outcome && decidedAt ? { id: decisionId, outcome, reason, createdAt: decidedAt, decidedBy } : null,
});

/** Eval runs, newest first, one page beyond the cursor. */
export async function listEvalRuns(input: { cursor?: TKeysetCursor; pageSize?: number; client?: Db } = {}): Promise<{ rows: TEvalRunRow[]; newerCursor: string | null; olderCursor: string | null; total: number }> {
  const client = input.client ?? defaultDb();
  const pageSize = input.pageSize ?? EVAL_RUNS_PAGE_SIZE;
  const direction = Prisma.raw(input.cursor?.direction === "newer" ? "ASC" : "DESC");
  const fetched = await client.$queryRaw<TRunSqlRow[]>`
    SELECT r.id, r."createdAt", r."agentVersion", r."datasetVersion", r."datasetHash", r."graderVersion", r."modelId", r."commit",
      r.trials, r.passed, r.failed, creator.name AS "createdBy",
      d.id AS "decisionId", d.outcome::text AS outcome, d.reason, d."createdAt" AS "decidedAt", decider.name AS "decidedBy",
      (SELECT count(*) FROM "EvalRun")::int AS total
    FROM "EvalRun" r
    LEFT JOIN "User" creator ON creator.id = r."createdById"
    LEFT JOIN LATERAL (
      SELECT id, outcome, reason, "createdAt", "decidedById" FROM "ReleaseDecision"
      WHERE "evalRunId" = r.id ORDER BY "createdAt" DESC, id DESC LIMIT 1
    ) d ON true
    LEFT JOIN "User" decider ON decider.id = d."decidedById"
    WHERE ${runsBeyond(input.cursor)}
    ORDER BY r."createdAt" ${direction}, r.id ${direction}
    LIMIT ${pageSize + 1}`;
  const page = keysetPage(fetched, pageSize, input.cursor);
  if (page.reachedNewest && input.cursor) return listEvalRuns({ ...input, cursor: undefined });
  // No row to carry the total: without a cursor there are no runs at all; beyond one, count them.
  const total = fetched[0]?.total ?? (input.cursor ? await client.evalRun.count() : 0);
  return { rows: page.rows.map(runRow), newerCursor: page.newerCursor, olderCursor: page.olderCursor, total };
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
  const take = input.take ?? RELEASE_DECISIONS_SHOWN;
  const fetched = await client.$queryRaw<(TReleaseDecisionRow & { total: number })[]>`
    SELECT d.id, d.outcome::text AS outcome, d.reason, d."createdAt", decider.name AS "decidedBy",
      r.id AS "evalRunId", r."agentVersion", r."datasetVersion", r."commit",
      (SELECT count(*) FROM "ReleaseDecision")::int AS total
    FROM "ReleaseDecision" d
    JOIN "EvalRun" r ON r.id = d."evalRunId"
    LEFT JOIN "User" decider ON decider.id = d."decidedById"
    ORDER BY d."createdAt" DESC, d.id DESC
    LIMIT ${take}`;
  const total = fetched[0]?.total ?? (take > 0 ? 0 : await client.releaseDecision.count());
  return { rows: fetched.map(({ total: _total, ...row }) => row), total };
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
