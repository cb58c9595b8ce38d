// Tidies the states after a scheduled version takes effect: the published versions it superseded are
// retired, by whoever published it, as of the time it took effect. Nothing depends on it for what is
// evidence – countersign_policy_in_effect already leaves them out – so it may run whenever: the
// routine job retire-superseded runs it every minute (lib/jobs/definitions/retire-superseded.ts).
// Each key's retirement is audited, as the system's, in the same transaction.
import { recordAuditEvents } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";
import { retireSuperseded } from "./store/document-store";

export async function retireSupersededVersions(input: { client?: Db } = {}): Promise<{ docKey: string; version: number }[]> {
  return (input.client ?? defaultDb()).$transaction(async (tx) => {
    // One statement finds and retires them (the rule is the in-effect function's); the events follow
    // in the same transaction, so neither commits without the other.
    const retired = await retireSuperseded(tx, null);
    const byKey = new Map<string, number[]>();
    for (const r of retired)
      byKey.set(
        r.docKey,
        [...(byKey.get(r.docKey) ?? []), r.version].sort((a, b) => a - b),
      );
    await recordAuditEvents(
      tx,
      [...byKey].map(([docKey, versions]) => ({
        actorType: "system" as const,
        actorId: "document-scheduler",
        action: "document.retired" as const,
        subjectType: "document",
        subjectId: docKey,
        inputs: { docKey, versions, why: "superseded" },
      })),
    );
    return retired;
  });
}
