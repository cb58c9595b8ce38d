"use server";
// The autonomy page's actions, both through authedAction (area autonomy: leads and admins). The
// domain functions check the role again and audit what they change; nothing here decides policy.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authedAction } from "@/lib/auth/authed";
import { CANDIDATE_LIMITS_CENTS, setAutonomyLimit, startShadowPass } from "@/lib/eval/shadow";

/** The dial's positions: zero (every refund needs a person) or one of the candidate limits. */
const DIAL_POSITIONS: readonly number[] = [0, ...CANDIDATE_LIMITS_CENTS];

const ZSetLimit = z.object({
  limitCents: z.coerce
    .number({ message: "Choose a limit." })
    .int("Choose a limit.")
    .refine((v) => DIAL_POSITIONS.includes(v), "Choose one of the listed limits."),
});

// Refusals (insufficient_evidence, forbidden, invalid, stale) reach the lead as their code and message.
export const setAutonomyLimitAction = authedAction({ area: "autonomy", input: ZSetLimit }, async ({ input, user }) => {
  const result = await setAutonomyLimit({ limitCents: input.limitCents, actor: { id: user.id, role: user.role } });
  revalidatePath("/autonomy");
  return { limitCents: result.settings["autonomy.autoApproveLimitCents"], changed: result.changed.length > 0 };
});

const ZShadowPass = z.object({
  /** How many of the most recent tickets waiting for a refund decision to shadow. */
  limit: z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(500, "must be at most 500"),
});

export const runShadowPassAction = authedAction({ area: "autonomy", input: ZShadowPass }, async ({ input, user }) => {
  const pass = await startShadowPass({ actor: { id: user.id, role: user.role }, limit: input.limit });
  revalidatePath("/autonomy");
  return { ...pass };
});
