// Whether a version may be published as far as its evaluation goes: the evaluation of this exact
// content must have finished, and every regression it found must be acknowledged by name.
// (Filled by the evaluation work: until then no version is held back by an evaluation.)
import type { DbTx } from "../db";

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

/** Null when the evaluation lets this version be published, else the reason code and a sentence. */
export async function publishGateProblem(_input: TPublishGateInput): Promise<{ code: string; message: string } | null> {
  return null;
}
