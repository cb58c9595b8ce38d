import { takeCheckpoint } from "../../audit/checkpoint";
import type { AUDIT_CHECKPOINT_JOB } from "../definitions/audit-checkpoint";
import type { TJobInput } from "./job-input";

/** Signs the audit chain's state with the key outside the database, into the worker's log too. */
export async function signCheckpointJob({ client, log }: TJobInput<typeof AUDIT_CHECKPOINT_JOB>): Promise<unknown> {
  return takeCheckpoint(client, { log });
}
