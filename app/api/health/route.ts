import { checkHealth } from "@/lib/db/health";

export const dynamic = "force-dynamic";

// Public by design (load balancers and the test harness poll it); it reveals no data.
export async function GET() {
  const health = await checkHealth();
  return Response.json(health, { status: health.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
