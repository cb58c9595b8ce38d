// What a handler is given: its job's payload as the definition's schema parsed it, and the worker's
// client and log. Handlers sit in the worker's part (eslint.config.mjs, PARTS): they call up into
// the parts that own each effect, which themselves send jobs through lib/jobs.
import type { z } from "zod";
import type { Db } from "../../db";
import type { TJobDefinition } from "../define-job";

export interface TJobInput<D extends TJobDefinition> {
  data: z.output<D["payload"]>;
  client: Db;
  /** The worker's lines (tests collect or silence them). */
  log: (line: string) => void;
  /** No retry follows a failure of this attempt. */
  lastAttempt: boolean;
}

/** A handler's answer is logged with the job's line when it is a word (an outcome). */
export type TJobHandler<D extends TJobDefinition = TJobDefinition> = (input: TJobInput<D>) => Promise<unknown>;
