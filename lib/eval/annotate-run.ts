// A person's judgement of an agent run: correct, or wrong for a reason of the closed list, with the
// reply or the amount it should have had. One annotation per run, made or replaced here with its audit
// event in one transaction; whoever may annotate (AREAS.annotate) may judge any run.
import { z } from "zod";
import { AppError } from "../contracts/app-error";
import { ANNOTATION_REASONS, ANNOTATION_VERDICTS } from "../contracts/reason-codes";
import { mayUse, type Role } from "../contracts/roles";
import { plainText } from "../contracts/text";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";

const USD = /^\d{1,7}(?:\.\d{1,2})?$/;

/** The annotation as a form sends it: the amount in USD as typed ("" for none), turned into cents. */
export const ZAnnotation = z
  .object({
    runId: z.uuid(),
    verdict: z.enum(ANNOTATION_VERDICTS),
    reason: z
      .union([z.enum(ANNOTATION_REASONS), z.literal("")])
      .optional()
      .transform((r) => r || null),
    correctedReply: plainText(z.string().trim().max(5000))
      .optional()
      .transform((t) => t || null),
    correctedAmount: z
      .string()
      .trim()
      .refine((t) => t === "" || USD.test(t), "Enter an amount in USD, like 49 or 49.50.")
      .optional()
      .transform((t) => (t ? Math.round(Number(t) * 100) : null)),
  })
  .refine((a) => a.verdict === "correct" || a.reason !== null, { message: "Say why the run was wrong.", path: ["reason"] })
  .transform(({ correctedAmount, ...a }) =>
    a.verdict === "correct" ? { ...a, reason: null, correctedReply: null, correctedAmountCents: null } : { ...a, correctedAmountCents: correctedAmount },
  );
export type TAnnotation = z.output<typeof ZAnnotation>;

export async function annotateRun(input: { annotation: TAnnotation; actor: { id: string; role: Role }; client?: Db; now?: Date }): Promise<{ annotationId: string }> {
  const { annotation, actor } = input;
  if (!mayUse(actor.role, "annotate")) throw new AppError("forbidden", "Your role may not annotate runs.");
  const client = input.client ?? defaultDb();
  const run = await client.agentRun.findUnique({ where: { id: annotation.runId }, select: { id: true, ticketId: true, status: true } });
  if (!run) throw new AppError("not_found", "No such run.");
  if (run.status === "running") throw new AppError("annotation_state", "The run is still running: judge it once it has stopped.");
  const at = input.now ?? new Date();
  const { runId, ...judged } = annotation;
  const fields = { ...judged, annotatedById: actor.id, annotatedAt: at };
  return client.$transaction(async (tx) => {
    const row = await tx.runAnnotation.upsert({ where: { runId }, create: { runId, ticketId: run.ticketId, ...fields }, update: fields, select: { id: true } });
    await recordAuditEvent(tx, { actorType: "user", actorId: actor.id, action: "run.annotated", subjectType: "agent_run", subjectId: runId, ticketId: run.ticketId, inputs: judged });
    return { annotationId: row.id };
  });
}
