// Handing a run to a person to judge, as tickets are handed out: anyone who annotates may take one or
// give it back, and a lead or admin may give it to anyone who annotates. Audited with the row's change.
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";

export async function assignAnnotation(input: { runId: string; assigneeId: string | null; actor: { id: string; role: Role }; client?: Db }): Promise<void> {
  const { runId, assigneeId, actor } = input;
  if (!mayUse(actor.role, "annotate")) throw new AppError("forbidden", "Your role may not annotate runs.");
  const handsOut = actor.role === "LEAD" || actor.role === "ADMIN";
  if (assigneeId && assigneeId !== actor.id && !handsOut) throw new AppError("forbidden", "Only a lead or an admin gives a run to someone else; take it yourself instead.");
  const client = input.client ?? defaultDb();
  const run = await client.agentRun.findUnique({ where: { id: runId }, select: { ticketId: true, annotation: { select: { assigneeId: true } } } });
  if (!run) throw new AppError("not_found", "No such run.");
  // As with tickets, a run someone else holds changes hands only through a lead or an admin.
  const heldByOther = !!run.annotation?.assigneeId && run.annotation.assigneeId !== actor.id;
  if (heldByOther && !handsOut) throw new AppError("forbidden", "Someone else holds this run: a lead or an admin may hand it on.");
  if (assigneeId) {
    const person = await client.user.findUnique({ where: { id: assigneeId }, select: { role: true, active: true } });
    if (!person?.active || !mayUse(person.role, "annotate")) throw new AppError("invalid", "That person cannot annotate runs.", "assigneeId");
  }
  await client.$transaction(async (tx) => {
    await tx.runAnnotation.upsert({ where: { runId }, create: { runId, ticketId: run.ticketId, assigneeId }, update: { assigneeId } });
    await recordAuditEvent(tx, { actorType: "user", actorId: actor.id, action: "annotation.assigned", subjectType: "agent_run", subjectId: runId, ticketId: run.ticketId, inputs: { assigneeId, from: run.annotation?.assigneeId ?? null } });
  });
}
