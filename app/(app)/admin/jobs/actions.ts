"use server";
// Retrying a failed job: admins only, here and again in the domain function, which audits it.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { plainText } from "@/lib/contracts/text";
import { authedAction } from "@/lib/auth/authed";
import { retryFailedJob } from "@/lib/jobs/retry-job";

export const retryJobAction = authedAction(
  { area: "admin", input: z.object({ queue: plainText(z.string().min(1).max(100), { label: "The queue" }), jobId: z.uuid() }) },
  async ({ input, user }) => {
    await retryFailedJob({ queue: input.queue, jobId: input.jobId, actor: { id: user.id, role: user.role } });
    revalidatePath("/admin/jobs");
    return { retried: input.jobId };
  },
);
