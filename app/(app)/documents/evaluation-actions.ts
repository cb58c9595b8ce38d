"use server";
// A version's evaluation before publishing: asked for by anyone who works on documents, its
// regressions acknowledged by someone the setting documents.publishRole allows (lib/documents checks
// it, as it does for publishing).
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authedAction } from "@/lib/auth/authed";
import { plainText } from "@/lib/contracts/text";
import { acknowledgeRegression } from "@/lib/documents/evaluate-acknowledge";
import { startEvaluation } from "@/lib/documents/evaluate-start";

const refresh = () => revalidatePath("/documents", "layout");

export const startEvaluationAction = authedAction(
  { area: "documents", input: z.object({ documentId: z.uuid() }) },
  async ({ input, user }) => {
    const started = await startEvaluation({ documentId: input.documentId, actor: user });
    refresh();
    return started;
  },
);

export const acknowledgeRegressionsAction = authedAction(
  {
    area: "documents",
    input: z.object({
      evaluationId: z.uuid(),
      note: plainText(z.string().max(500, "A note may be at most 500 characters."), { label: "The note", multiline: true }).optional(),
    }),
  },
  async ({ input, user }) => {
    const acknowledged = await acknowledgeRegression({ evaluationId: input.evaluationId, actor: user, note: input.note ?? null });
    refresh();
    return { ...acknowledged, acknowledgedAt: acknowledged.acknowledgedAt.toISOString() };
  },
);
