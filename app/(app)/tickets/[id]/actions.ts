"use server";
// The ticket page's actions. Each goes through authedAction: session, role and input are checked
// here, and again by the domain functions, which know nothing of Next.js.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { plainText } from "@/lib/contracts/text";
import { AppError, authedAction } from "@/lib/auth/authed";
import { awaitLiveRunStart, refusalOf, startLiveRun } from "@/lib/agent/live-runs";
import { defaultPlannerChoice, plannerSetup } from "@/lib/llm/choose-planner";
import { decideApproval } from "@/lib/approvals/decide-approval";
import { resolveByHand } from "@/lib/approvals/resolve-by-hand";
import { assignTicket } from "@/lib/queue/assign-ticket";
import { awaitRefundOutcome } from "@/lib/approvals/settle-refund";
import { QUEUES } from "@/lib/jobs/queue";
import { processWorker } from "@/lib/jobs/worker";
import { findTicket } from "@/lib/tickets/find-ticket";
import { sendBackWithFeedback } from "@/lib/approvals/send-back";
import { addInternalNote, MAX_NOTE_CHARS } from "@/lib/conversations/add-note";

const ZRunAgent = z.object({
  ticketId: z.uuid(),
  mode: z.enum(["live", "simulate"]),
  planner: z.enum(["rule", "model", "default"]).default("default"),
});

/**
 * Enqueues the run and answers at once, or after a moment for the run to start, so that a refusal at
 * its start reaches the page as its code; the run goes on in a worker whatever becomes of this request
 * (lib/agent/live-runs.ts), and the page follows it by its id.
 */
export const runAgentAction = authedAction({ area: "runAgent", input: ZRunAgent }, async ({ input, user }) => {
  const ticket = await findTicket(input.ticketId);
  if (!ticket) throw new AppError("not_found", "This ticket does not exist.");
  // planner_unavailable, and the lifecycle's refusals (a resolved ticket, a ticket another run or a
  // refund holds), reach the page as their codes, before anything is enqueued.
  plannerSetup(input.planner === "default" ? await defaultPlannerChoice() : input.planner);
  const { runId } = await startLiveRun({ ticket, mode: input.mode, planner: input.planner, startedBy: user.id });
  processWorker()?.nudge(QUEUES.liveRun);
  const progress = await awaitLiveRunStart(runId, RUN_START_WAIT_MS);
  const refused = progress?.state === "refused" ? refusalOf(progress.message) : null;
  if (refused) throw refused;
  return { runId, runStatus: progress?.status ?? "queued", reason: progress?.reason ?? null };
});

/** How long "Run agent" waits for its run to start before it answers. */
const RUN_START_WAIT_MS = 2_000;

const ZDecide = z
  .object({
    approvalId: z.uuid(),
    digest: z.string().regex(/^[0-9a-f]{64}$/, "is not a digest"),
    decision: z.enum(["approve", "reject"]),
    note: plainText(z.string().max(2000), { multiline: true, label: "The note" }).optional(),
    editedReply: plainText(z.string().max(8000), { multiline: true, label: "The reply" }).optional(),
    /** The refund as the person left it, in currency units ("50.00"): lower than proposed makes an edit. */
    amount: z
      .string()
      .trim()
      .regex(/^\d{1,9}(\.\d{1,2})?$/, "Write an amount such as 50.00.")
      .transform((v) => Math.round(Number(v) * 100))
      .optional(),
  })
  .refine((v) => v.decision === "approve" || (v.note ?? "").trim().length > 0, {
    path: ["note"],
    message: "Say why you reject it: a note is required.",
  });

// A refused decision (stale, expired, already decided, …) reaches the page as its code: the page
// offers a fresh run where one would help.
export const decideApprovalAction = authedAction({ area: "approve", input: ZDecide }, async ({ input, user }) => {
  const { amount, ...decision } = input;
  const result = await decideApproval({ ...decision, amountCents: amount ?? null, actor: { id: user.id, role: user.role } });
  // The refund job runs on its own; wait a little so the reviewer usually sees the outcome at once.
  // Correctness never depends on this request surviving: the job was committed with the decision.
  let execution: string | null = null;
  if (result.refundJobEnqueued) {
    processWorker()?.nudge(QUEUES.refundExecute);
    execution = await awaitRefundOutcome(result.approvalId, 3_000);
  }
  revalidatePath(`/tickets/${result.ticketId}`);
  return {
    decision: result.decision,
    execution,
    refund: result.refundJobEnqueued,
    approvals: result.approvals,
    approvalsRequired: result.approvalsRequired,
    /** False when the person lowered a two-person refund: the lowered request waits for two others. */
    recorded: result.decisionId !== null,
  };
});

const ZResolve = z.object({
  ticketId: z.uuid(),
  reply: plainText(z.string().trim().min(1, "Write the reply the customer will receive.").max(8000), {
    multiline: true,
    label: "The reply",
  }),
  note: plainText(z.string().max(2000), { multiline: true, label: "The note" }).optional(),
});

export const resolveByHandAction = authedAction({ area: "approve", input: ZResolve }, async ({ input, user }) => {
  const result = await resolveByHand({ ...input, actor: { id: user.id, role: user.role } });
  revalidatePath(`/tickets/${input.ticketId}`);
  return result;
});

const ZAssign = z
  .object({ ticketId: z.uuid(), change: z.enum(["claim", "assign", "unassign"]), assigneeId: z.uuid().optional() })
  .refine((v) => v.change !== "assign" || v.assigneeId, { path: ["assigneeId"], message: "Choose who gets the ticket." });

/** Claim, assign or unassign: the domain checks who may, locks the ticket, and audits the change. */
export const assignTicketAction = authedAction({ area: "assign", input: ZAssign }, async ({ input, user }) => {
  const change = input.change === "assign" ? { kind: "assign" as const, assigneeId: input.assigneeId! } : { kind: input.change };
  const result = await assignTicket({ ticketId: input.ticketId, change, actor: { id: user.id, role: user.role } });
  revalidatePath(`/tickets/${input.ticketId}`);
  return result;
});

const ZSendBack = z.object({
  approvalId: z.uuid(),
  digest: z.string().regex(/^[0-9a-f]{64}$/, "is not a digest"),
  note: plainText(z.string().trim().min(1, "Say what the agent should change: a note is required.").max(2000), {
    multiline: true,
    label: "The note",
  }),
});

/** Sends the draft back to the agent with the note: the request is superseded and the ticket returns to the queue. */
export const sendBackAction = authedAction({ area: "approve", input: ZSendBack }, async ({ input, user }) => {
  const result = await sendBackWithFeedback({ ...input, actor: { id: user.id, role: user.role, email: user.email } });
  revalidatePath(`/tickets/${result.ticketId}`);
  return { decision: "send_back" as const, ticketId: result.ticketId };
});

const ZNote = z.object({
  ticketId: z.uuid(),
  body: plainText(z.string().trim().min(1, "Write the note.").max(MAX_NOTE_CHARS), { multiline: true, label: "The note" }),
});

/** An internal note on the ticket's conversation: for the team, never sent, never read by the agent. */
export const addNoteAction = authedAction({ area: "approve", input: ZNote }, async ({ input, user }) => {
  const result = await addInternalNote({ ...input, actor: { id: user.id, role: user.role, email: user.email } });
  revalidatePath(`/tickets/${input.ticketId}`);
  return result;
});
