// Whether a version may be published as far as its evaluation goes (publishVersion asks, inside its
// transaction, with the version locked): the latest finished evaluation of this exact content must
// exist – an evaluation of an earlier draft of it does not count – and every regression it found
// must be acknowledged by name: before, by someone who may publish (evaluate-acknowledge.ts), or now,
// by the publisher (`acknowledgeRegressions`), recorded with the publish in its transaction.
import type { TErrorCode } from "../contracts/app-error";
import type { DbTx } from "../db";
import { recordAcknowledgement } from "./evaluate-acknowledge";

export interface TPublishGateInput {
  tx: DbTx;
  documentId: string;
  contentHash: string;
  /** The person publishing. */
  userId: string;
  /** The person publishing acknowledges, under their own name, the regressions the evaluation of this
   * content found (publishVersion's `acknowledgeRegressions`). */
  acknowledgeRegressions?: boolean;
}

export type TPublishGateCode = Extract<TErrorCode, "evaluation_required" | "regression_unacknowledged">;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** What the regressions are, in a few words: the answers lost and the episodes that fail. */
function regressionWords(results: unknown): string {
  const r = results as { questions?: { lost?: unknown[] }; episodes?: { toFail?: unknown[] } } | null;
  const lost = r?.questions?.lost?.length ?? 0;
  const failing = r?.episodes?.toFail?.length ?? 0;
  return [lost ? `${plural(lost, "answer")} lost` : null, failing ? `${plural(failing, "episode")} failing after publishing` : null]
    .filter(Boolean)
    .join(", ");
}

/** Null when the evaluation lets this version be published, else the reason code and a sentence. */
export async function publishGateProblem(input: TPublishGateInput): Promise<{ code: TPublishGateCode; message: string } | null> {
  const { tx, documentId, contentHash } = input;
  const latest = await tx.policyEvaluation.findFirst({
    where: { documentId, contentHash, status: "done" },
    orderBy: [{ finishedAt: "desc" }, { createdAt: "desc" }],
    select: { id: true, regressions: true, results: true, acknowledgedById: true },
  });
  if (!latest) {
    const open = await tx.policyEvaluation.count({ where: { documentId, contentHash, status: { in: ["queued", "running"] } } });
    return {
      code: "evaluation_required",
      message: open
        ? "The evaluation of this content has not finished yet: publish it once it has, and its results are in."
        : "This content has not been evaluated: evaluate it first (an evaluation of an earlier draft does not count).",
    };
  }
  if (!latest.regressions || latest.acknowledgedById) return null;
  if (!input.acknowledgeRegressions)
    return {
      code: "regression_unacknowledged",
      message: `The evaluation of this content found ${plural(latest.regressions, "regression")} (${regressionWords(latest.results)}) that nobody has acknowledged: look at them, and acknowledge them by name to publish over them.`,
    };
  const version = await tx.policyDocument.findUniqueOrThrow({
    where: { id: documentId },
    select: { docKey: true, version: true, contentHash: true },
  });
  const actor = await tx.user.findUniqueOrThrow({ where: { id: input.userId }, select: { id: true, role: true } });
  await recordAcknowledgement(tx, { evaluation: latest, version, actor, note: null, via: "publish" });
  return null;
}
