import { deleteExpiredSessions } from "../../auth/sweep-sessions";
import type { SWEEP_SESSIONS_JOB } from "../definitions/sweep-sessions";
import type { TJobInput } from "./job-input";

/** Sessions idle past their lifetime → deleted (they are refused already). */
export async function sweepSessionsJob({ client }: TJobInput<typeof SWEEP_SESSIONS_JOB>): Promise<unknown> {
  return deleteExpiredSessions({ client });
}
