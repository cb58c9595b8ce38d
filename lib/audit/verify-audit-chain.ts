// Walks the audit chain from the first event and recomputes every hash. The first event whose
// stored hash or link does not match is the first broken link: everything after it is suspect.
import type { Db } from "../db";
import { auditHash, GENESIS_HASH, type ActorType } from "./record-audit-event";

export type TChainReport =
  | { ok: true; events: number; lastHash: string }
  | { ok: false; events: number; brokenAt: { seq: bigint; action: string; at: Date; problem: "hash_mismatch" | "link_mismatch" } };

export async function verifyAuditChain(client: Db, options: { batchSize?: number; onProgress?: (checked: number) => void } = {}): Promise<TChainReport> {
  const batchSize = options.batchSize ?? 5000;
  let prevHash = GENESIS_HASH;
  let checked = 0;
  let after: bigint | undefined;
  for (;;) {
    const batch = await client.auditEvent.findMany({ where: after === undefined ? {} : { seq: { gt: after } }, orderBy: { seq: "asc" }, take: batchSize });
    for (const e of batch) {
      if (e.prevHash !== prevHash) return { ok: false, events: checked, brokenAt: { seq: e.seq, action: e.action, at: e.at, problem: "link_mismatch" } };
      const expected = auditHash(prevHash, { ...e, actorType: e.actorType as ActorType });
      if (expected !== e.hash) return { ok: false, events: checked, brokenAt: { seq: e.seq, action: e.action, at: e.at, problem: "hash_mismatch" } };
      prevHash = e.hash;
      checked++;
    }
    options.onProgress?.(checked);
    if (batch.length < batchSize) return { ok: true, events: checked, lastHash: prevHash };
    after = batch.at(-1)!.seq;
  }
}
