import { retireSupersededVersions } from "../../documents/retire-superseded-versions";
import type { RETIRE_SUPERSEDED_JOB } from "../definitions/retire-superseded";
import type { TJobInput } from "./job-input";

/** Published versions a scheduled version has superseded → retired, audited as the system's. */
export async function retireSupersededJob({ client }: TJobInput<typeof RETIRE_SUPERSEDED_JOB>): Promise<unknown> {
  return retireSupersededVersions({ client });
}
