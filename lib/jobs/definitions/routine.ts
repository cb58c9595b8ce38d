// What the routine jobs share. pg-boss's cron sends them, and they carry nothing.
import { z } from "zod";
import type { TJobOptions } from "../define-job";

/** No data. Null too: a job the cron wrote before its schedule carried `{}` has none. */
export const ZNoPayload = z.object({}).nullish();

/**
 * pg-boss's own defaults, which the sweeps have run with since they were scheduled: a failed sweep is
 * retried at once, twice, and the next minute's sweep does its work anyway; a quarter of an hour
 * before a dead worker's sweep is released, so a long one is not handed to a second worker meanwhile.
 */
export const ROUTINE_OPTIONS = (): TJobOptions => ({ retryLimit: 2, retryDelay: 0, retryBackoff: false, expireInSeconds: 900 });
