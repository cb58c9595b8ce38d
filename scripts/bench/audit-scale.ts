// /audit and `npm run audit:verify` at 1,000,000 events. On the bench database: the scale set (if the
// HTTP part has not added it) and its audit trail (prisma/seed/scale-audit.ts: ten events on each of
// 100,000 ticket streams), a signed checkpoint over all of it, then:
//   - audit:verify's full check (lib/audit/verify-audit-chain.ts: every hash, every stream's links,
//     the checkpoint's window, the ledger), in seconds and events/s;
//   - the /audit page's server work, called in process as the page calls it: the incremental
//     verification from the last verified checkpoint (lib/audit/verify-incrementally.ts) and the
//     first page of events (lib/audit/search-audit.ts), p50/p95 over the runs, held to < 300 ms.
import { useDb as installDb, type DbHandle } from "../../lib/db";
import { checkpointFile, signingKey, takeCheckpoint } from "../../lib/audit/checkpoint";
import { searchAudit, ZAuditQuery } from "../../lib/audit/search-audit";
import { verifyAuditChain } from "../../lib/audit/verify-audit-chain";
import { verifyIncrementally } from "../../lib/audit/verify-incrementally";
import { SCALE_TICKETS, seedScale } from "../../prisma/seed/scale";
import { seedScaleAudit } from "../../prisma/seed/scale-audit";
import { progress, type Report } from "./report";

const PAGE_BUDGET_MS = 300;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export async function benchAuditAtScale(handle: DbHandle, report: Report, opts: { runs?: number } = {}): Promise<void> {
  const client = handle.client;
  installDb(handle); // searchAudit reads through db()
  if ((await client.ticket.count({ where: { externalId: { startsWith: "scale-" } } })) < SCALE_TICKETS) {
    progress("audit: adding the scale set (100,000 tickets)…");
    await seedScale(client, { onProgress: (line) => progress(`audit:${line}`) });
  }
  progress("audit: adding 1,000,000 audit events on the scale tickets' streams…");
  await seedScaleAudit(client, { onProgress: (line) => progress(`audit:${line}`) });
  const events = await client.auditEvent.count();

  // The bench's key and checkpoint file (scripts/bench/secrets.ts), which the servers it started on this
  // database signed their checkpoints with too.
  const key = signingKey(() => {});
  const publicKey = key.publicKey;
  const file = checkpointFile();
  let signed = false;
  for (let attempt = 0; attempt < 20 && !signed; attempt++) {
    const result = await takeCheckpoint(client, { key, file, log: () => {} });
    signed = "signed" in result;
    if (!signed) await new Promise((r) => setTimeout(r, 500));
  }
  if (!signed) throw new Error("no checkpoint could be signed");

  progress(`audit: audit:verify's full check over ${events.toLocaleString("en-US")} events…`);
  const started = performance.now();
  const full = await verifyAuditChain(client, { publicKey, file });
  const seconds = (performance.now() - started) / 1000;
  if (!full.ok) throw new Error(`the chain does not verify: ${full.problems.length} problem(s)`);
  await client.auditVerification.create({ data: { full: true, ok: true, position: full.position, events: BigInt(full.events) } });
  report.add({
    measure: `audit:verify, full check (${(events / 1e6).toFixed(1)}M events)`,
    value: `${seconds.toFixed(1)} s`,
    baseline: "",
    ratio: `${Math.round(events / seconds).toLocaleString("en-US")} events/s`,
    target: "",
    verdict: "",
  });

  // The page: as it runs on each view, after the full check above (the steady state).
  const runs = opts.runs ?? 30;
  const times: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const t = performance.now();
    const [verified] = await Promise.all([verifyIncrementally(client, { publicKey }), searchAudit({ query: ZAuditQuery.parse({}) })]);
    if (!verified.report.ok) throw new Error("the incremental verification failed");
    if (i >= 3) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  report.limit(
    `/audit server work at ${(events / 1e6).toFixed(1)}M events, p95 (p50 ${percentile(times, 50).toFixed(1)} ms)`,
    percentile(times, 95),
    "ms",
    PAGE_BUDGET_MS,
  );
  report.note(
    "/audit: the page's own calls in process (incremental verification from the last verified checkpoint, and the first page of events), after one full check.",
  );
}
