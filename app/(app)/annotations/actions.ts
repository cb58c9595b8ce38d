"use server";
// Annotating agent runs and turning the judgements into evaluation data: the Annotations page and the
// ticket page's run cards. The domain functions (lib/eval/) check the role again.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authedAction } from "@/lib/auth/authed";
import { annotateRun, ZAnnotation } from "@/lib/eval/annotate-run";
import { assignAnnotation } from "@/lib/eval/assign-annotation";
import { reviewEpisodeCandidate } from "@/lib/eval/review-episode-candidate";
import { saveEpisodeCandidate } from "@/lib/eval/save-episode-candidate";

export const annotateRunAction = authedAction({ area: "annotate", input: ZAnnotation }, async ({ input, user }) => {
  const result = await annotateRun({ annotation: input, actor: user });
  revalidatePath("/annotations");
  revalidatePath("/tickets/[id]", "page");
  return result;
});

const ZAssignAnnotation = z.object({
  runId: z.uuid(),
  /** "" gives the run back. */
  assigneeId: z.union([z.uuid(), z.literal("")]).transform((id) => id || null),
});

export const assignAnnotationAction = authedAction({ area: "annotate", input: ZAssignAnnotation }, async ({ input, user }) => {
  await assignAnnotation({ runId: input.runId, assigneeId: input.assigneeId, actor: user });
  revalidatePath("/annotations");
  return { assigneeId: input.assigneeId };
});

export const saveEpisodeAction = authedAction({ area: "annotate", input: z.object({ runId: z.uuid() }) }, async ({ input, user }) => {
  const saved = await saveEpisodeCandidate({ runId: input.runId, actor: user });
  revalidatePath("/annotations");
  revalidatePath("/tickets/[id]", "page");
  return saved;
});

const ZReview = z.object({ candidateId: z.uuid(), decision: z.enum(["promote", "discard"]) });

export const reviewEpisodeAction = authedAction({ area: "evals", input: ZReview }, async ({ input, user }) => {
  const reviewed = await reviewEpisodeCandidate({ candidateId: input.candidateId, decision: input.decision, actor: user });
  revalidatePath("/annotations");
  revalidatePath("/evals");
  return reviewed;
});
