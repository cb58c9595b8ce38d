// ┌──────────────────────────────────────────────────────────────────────────────────────────────┐
// │ TO FILL IN with the new audit chain: /audit and `npm run audit:verify` at 1,000,000 events.    │
// └──────────────────────────────────────────────────────────────────────────────────────────────┘
// The audit chain is being redesigned (streams and checkpoints); its figures belong here once the
// design settles. Expected shape: add 1M events to the bench database `handle` points at (set-based,
// as prisma/seed/scale.ts adds trace events), then measure
//   - the /audit page's query (lib/audit/search-audit.ts) at p50/p95, against GET /api/health;
//   - audit:verify (lib/audit/verify-audit-chain.ts) over the whole chain, in events/s, and an
//     incremental verification from the latest checkpoint, if the design has one;
// and add one report row per figure with its target. Until then it says what it skipped.
import type { DbHandle } from "../../lib/db";
import type { Report } from "./report";

export async function benchAuditAtScale(handle: DbHandle, report: Report): Promise<void> {
  void handle;
  report.skipped("/audit and audit:verify at 1M events", "waiting for the audit chain's redesign (scripts/bench/audit-scale.ts)");
}
