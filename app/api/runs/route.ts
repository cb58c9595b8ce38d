// A run as the ticket page follows it while it works: queued, its steps so far with what they used,
// then its end. Anyone who sees the ticket page may read it: it shows what that page shows.
import { z } from "zod";
import { AppError, authedRoute } from "@/lib/auth/authed";
import { liveRunProgress } from "@/lib/agent/live-runs";

export const dynamic = "force-dynamic";

export const GET = authedRoute({ area: "tickets", input: z.object({ id: z.uuid() }) }, async ({ input }) => {
  const progress = await liveRunProgress(input.id);
  if (!progress) throw new AppError("not_found", "There is no such run.");
  return Response.json(progress, { headers: { "cache-control": "no-store" } });
});
