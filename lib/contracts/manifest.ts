// The agent manifest (contracts/agent_manifest.json): the identities a run is pinned to, and the one
// place they are written. Intake, the agent loop, approvals and the release gate read them from here;
// code that names its own identity (the evidence service, the grader, the dataset file) is held to
// the manifest by lib/contracts/pins.test.ts. Validated once; a bad manifest stops start-up rather
// than letting a run record something unverified.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";

export const ZAgentManifest = z.strictObject({
  agentVersion: z.string().min(1),
  intakeBundle: z.string().min(1),
  evidenceServiceVersion: z.string().min(1),
  evalDatasetVersion: z.string().min(1),
  /** The content hash of eval/episodes.jsonl (sha256 of its bytes) and its episode count: `npm run eval:pin` prints both. */
  evalDatasetHash: z.string().regex(/^sha256:[0-9a-f]{64}$/, "must be sha256:<64 hex digits> (npm run eval:pin prints it)"),
  evalDatasetEpisodes: z.number().int().positive(),
  /** The labelled retrieval questions (eval/questions.jsonl): content hash and count, printed by `npm run eval:pin` too. */
  evalQuestionsHash: z.string().regex(/^sha256:[0-9a-f]{64}$/, "must be sha256:<64 hex digits> (npm run eval:pin prints it)"),
  evalQuestionsCount: z.number().int().positive(),
  graderVersion: z.string().min(1),
  forbiddenAutonomousActions: z.array(z.string().min(1)).min(1),
  budgets: z.strictObject({
    maxSteps: z.number().int().positive(),
    maxTokens: z.number().int().positive(),
    maxWallMs: z.number().int().positive(),
    toolTimeoutMs: z.number().int().positive(),
  }),
});
export type TAgentManifest = z.infer<typeof ZAgentManifest>;

/** The manifest's fields that name a pinned identity (a version string). */
export const PINNED_IDENTITIES = ["agentVersion", "intakeBundle", "evidenceServiceVersion", "evalDatasetVersion", "evalDatasetHash", "evalQuestionsHash", "graderVersion"] as const satisfies readonly (keyof TAgentManifest)[];

export const MANIFEST_PATH = "contracts/agent_manifest.json";

let cached: TAgentManifest | undefined;

export function agentManifest(): TAgentManifest {
  if (cached) return cached;
  const raw = JSON.parse(readFileSync(resolve(MANIFEST_PATH), "utf8"));
  const parsed = ZAgentManifest.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${MANIFEST_PATH} is invalid at ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return (cached = parsed.data);
}
