import { applyRetention } from "../../privacy/apply-retention";
import type { RETENTION_JOB } from "../definitions/retention";
import type { TJobInput } from "./job-input";

/** Personal data past its retention period → erased, each batch audited. */
export async function retentionJob({ client }: TJobInput<typeof RETENTION_JOB>): Promise<unknown> {
  return applyRetention({ client });
}
