"use server";
// Retrying a failed job: admins only, here and again in the domain function, which audits it.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ActionError, authedAction } from "@/lib/auth/authed";
import { JobRetryRefused, retryFailedJob } from "@/lib/jobs/retry-job";

const HTTP: Record<JobRetryRefused["code"], number> = { forbidden: 403, not_found: 404, not_failed: 409 };

export const retryJobAction = authedAction({ area: "admin", input: z.object({ queue: z.string().min(1).max(100), jobId: z.uuid() }) }, async ({ input, user }) => {
  try {
    await retryFailedJob({ queue: input.queue, jobId: input.jobId, actor: { id: user.id, role: user.role } });
  } catch (error) {
    if (error instanceof JobRetryRefused) throw new ActionError(error.message, error.code, HTTP[error.code]);
    throw error;
  }
  revalidatePath("/admin/jobs");
  return { retried: input.jobId };
});
