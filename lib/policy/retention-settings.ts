// How long personal data is kept (lib/privacy/apply-retention.ts enforces it): days after a ticket is
// resolved before its personal text is erased, and days the runs' step traces keep their arguments and
// results. Stored as Setting rows beside the other settings; none decides a refund. Neither may go below
// six months: the runs and their traces are the system's logs, which deployers keep at least that
// long (EU AI Act, Art. 26(6)). The audit trail is never deleted, and holds no personal value
// (commitments only), so it needs no period of its own here.
import { z } from "zod";
import { db as defaultDb, type Db, type DbTx } from "../db";

export const RETENTION_TICKETS_KEY = "retention.ticketsDays";
export const RETENTION_TRACES_KEY = "retention.tracesDays";

/** Six months, in days: the shortest period either may be set to. */
export const MIN_RETENTION_DAYS = 183;

export const ZRetentionSettings = z.strictObject({
  /** Days after a ticket is resolved before its personal text (and its runs', approvals', replies') is erased. */
  [RETENTION_TICKETS_KEY]: z.number().int().min(MIN_RETENTION_DAYS).max(36_500),
  /** Days a run's step traces keep their arguments and results. */
  [RETENTION_TRACES_KEY]: z.number().int().min(MIN_RETENTION_DAYS).max(36_500),
});
export type TRetentionSettings = z.infer<typeof ZRetentionSettings>;

export const DEFAULT_RETENTION_SETTINGS: TRetentionSettings = {
  [RETENTION_TICKETS_KEY]: 730,
  [RETENTION_TRACES_KEY]: 365,
};

const KEYS = Object.keys(DEFAULT_RETENTION_SETTINGS);

/** The periods in force: the stored ones, the defaults for the others; a stored value out of range is refused. */
export async function loadRetentionSettings(client: Db | DbTx = defaultDb()): Promise<TRetentionSettings> {
  const rows = await client.setting.findMany({ where: { key: { in: KEYS } } });
  return ZRetentionSettings.parse({ ...DEFAULT_RETENTION_SETTINGS, ...Object.fromEntries(rows.map((r) => [r.key, r.value])) });
}
