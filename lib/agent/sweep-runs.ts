// Runs whose process died: a running run's lease is renewed by the process working on it, so an
// expired lease means nobody is. Such a run becomes `interrupted` with its reason, and a live run's
// ticket goes back to a person. A run another live process still renews is never touched, whichever
// server restarts.
import { db as defaultDb, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { isMoveRefusal, moveTicket } from "../tickets/lifecycle";
import { interruptRunRow } from "./store/run-recorder";

export const RUN_SWEEPER = { type: "system", id: "run-sweeper" } as const;

/** A run renewed after all: nothing is written for it. */
const NOT_TAKEN = Symbol("not taken");

export async function interruptExpiredRuns(input: { client?: Db; now?: Date; limit?: number } = {}): Promise<{ interrupted: string[] }> {
  const client = input.client ?? defaultDb();
  const now = input.now ?? new Date();
  const expired = await client.agentRun.findMany({
    where: { status: "running", leaseExpiresAt: { lt: now } },
    select: { id: true, ticketId: true, mode: true, leaseOwner: true },
    take: input.limit ?? 500,
  });
  const interrupted: string[] = [];
  for (const run of expired) {
    try {
      await client.$transaction(async (tx) => {
        // The event first, as in every audited write: the ticket's audit stream is the first lock
        // taken, then the run, then the ticket – the order a run ending at this moment takes them in
        // too, so the two never wait for each other crosswise.
        await recordAuditEvent(tx, {
          actorType: RUN_SWEEPER.type,
          actorId: RUN_SWEEPER.id,
          action: "run.interrupted",
          subjectType: "run",
          subjectId: run.id,
          ticketId: run.ticketId,
          inputs: { mode: run.mode, leaseOwner: run.leaseOwner },
        });
        // Still expired at the moment we take it: a renewal that landed meanwhile wins, and the event
        // goes with the rolled-back transaction.
        if (!(await interruptRunRow(tx, run.id, now))) throw NOT_TAKEN;
        if (run.mode === "live") {
          try {
            await moveTicket(tx, { ticketId: run.ticketId, move: "interrupt_run", reason: "run_interrupted" });
          } catch (error) {
            if (!isMoveRefusal(error)) throw error;
          }
        }
      });
      interrupted.push(run.id);
    } catch (error) {
      if (error !== NOT_TAKEN) throw error;
    }
  }
  return { interrupted };
}
