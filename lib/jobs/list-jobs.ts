// What the job queue holds, for the admins' jobs page: counts by queue and state, and the latest
// jobs waiting, running and failed (a failed job keeps its error until an admin retries it).
import { db as defaultDb, type Db } from "../db";
import { QUEUES, QUEUE_SCHEMA } from "./queue";

export const JOB_VIEWS = { waiting: ["created", "retry"], running: ["active"], failed: ["failed"] } as const;
export type TJobView = keyof typeof JOB_VIEWS;

export interface TJobRow {
  id: string;
  queue: string;
  state: string;
  data: unknown;
  retryCount: number;
  retryLimit: number;
  error: string | null;
  createdOn: Date;
  startedOn: Date | null;
  completedOn: Date | null;
  startAfter: Date;
}

const APP_QUEUES = Object.values(QUEUES);

export async function jobCounts(client: Db = defaultDb()): Promise<{ queue: string; state: string; count: number }[]> {
  return client.$queryRawUnsafe(
    `SELECT name AS queue, state::text AS state, count(*)::int AS count FROM ${QUEUE_SCHEMA}.job WHERE name = ANY($1::text[]) GROUP BY name, state ORDER BY name, state`,
    APP_QUEUES,
  );
}

export async function listJobs(input: { view: TJobView; limit?: number; client?: Db }): Promise<TJobRow[]> {
  const client = input.client ?? defaultDb();
  const rows = await client.$queryRawUnsafe<(Omit<TJobRow, "error"> & { output: unknown })[]>(
    `SELECT id::text, name AS queue, state::text AS state, data, retry_count AS "retryCount", retry_limit AS "retryLimit", output,
            created_on AS "createdOn", started_on AS "startedOn", completed_on AS "completedOn", start_after AS "startAfter"
       FROM ${QUEUE_SCHEMA}.job WHERE name = ANY($1::text[]) AND state::text = ANY($2::text[])
      ORDER BY created_on DESC LIMIT $3`,
    APP_QUEUES,
    [...JOB_VIEWS[input.view]],
    Math.min(input.limit ?? 100, 500),
  );
  return rows.map(({ output, ...row }) => ({ ...row, error: errorOf(output) }));
}

/** pg-boss keeps a failure's serialized error (or its last attempt's) in the job's output. */
function errorOf(output: unknown): string | null {
  if (!output || typeof output !== "object") return null;
  const o = output as { message?: unknown; value?: { message?: unknown } };
  const message = o.message ?? o.value?.message;
  return typeof message === "string" ? message : null;
}
