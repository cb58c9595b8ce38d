// A batch's progress and per-ticket results, polled by the queue while bulk work runs. Anyone who sees
// the queue may read it: it shows tickets and outcomes the queue and ticket pages show them anyway.
import { z } from "zod";
import { AppError, authedRoute } from "@/lib/auth/authed";
import { batchItemResults, batchProgress } from "@/lib/agent/batches";

export const dynamic = "force-dynamic";

export const GET = authedRoute({ area: "queue", input: z.object({ id: z.uuid() }) }, async ({ input }) => {
  const progress = await batchProgress(input.id);
  if (!progress) throw new AppError("not_found", "There is no such batch.");
  return Response.json({ ...progress, items: await batchItemResults(input.id) }, { headers: { "cache-control": "no-store" } });
});
