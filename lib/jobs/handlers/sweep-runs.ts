import { interruptExpiredRuns } from "../../agent/sweep-runs";
import type { SWEEP_RUNS_JOB } from "../definitions/sweep-runs";
import type { TJobInput } from "./job-input";

/** Runs whose lease ran out → interrupted, their tickets back to a person. */
export async function sweepRunsJob({ client }: TJobInput<typeof SWEEP_RUNS_JOB>): Promise<unknown> {
  return interruptExpiredRuns({ client });
}
