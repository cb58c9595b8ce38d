// "Send back with feedback": instead of approving or rejecting, a reviewer returns the agent's draft
// with a note. The request is superseded (reviewer_feedback), the note joins the ticket's
// conversation as the reviewer's message, and the ticket returns to the queue for a new run, which
// reads the note quoted as data (lib/agent/read-run-ticket.ts) and records it on the run. The note
// grants the agent nothing: the next run is held to the same allowlist, policy gate and budgets.
// Who may send back is who may decide the request now (decision-options.ts, as for a rejection).
import { committedText } from "../contracts/commitment";
import type { Role } from "../../generated/prisma/enums";
import { db as defaultDb, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { isMoveRefusal, moveTicket } from "../tickets/lifecycle";
import { insertMessage } from "../tickets/store/message-store";
import { decisionRefused, loadDecidable } from "./load-decidable";
import { supersedeRequest } from "./store/approval-store";

export interface TSendBackInput {
  approvalId: string;
  /** The digest of the request the reviewer was shown: a request changed since is refused. */
  digest: string;
  note: string;
  actor: { id: string; role: Role; email: string };
  client?: Db;
  now?: Date;
}

export async function sendBackWithFeedback(input: TSendBackInput): Promise<{ ticketId: string; messageId: string }> {
  const client = input.client ?? defaultDb();
  const note = input.note.trim();
  if (!note) throw decisionRefused("note_required", "Say what the agent should change: a note is required.");
  const request = await loadDecidable(
    client,
    { approvalId: input.approvalId, actor: input.actor, decision: "reject", digest: input.digest },
    input.now ?? new Date(),
  );
  const { ticketId } = request;
  try {
    return await client.$transaction(async (tx) => {
      await recordAuditEvent(tx, {
        actorType: "user",
        actorId: input.actor.id,
        action: "approval.sent_back",
        subjectType: "approval",
        subjectId: request.id,
        ticketId,
        // The note may quote the customer: the chain holds its commitment, the thread the text.
        inputs: { digest: request.digest, role: input.actor.role, note: committedText(request.salt, note), reason: "reviewer_feedback" },
      });
      // Guarded by its status: a decision or a newer run that came first wins, and this writes nothing.
      if (!(await supersedeRequest(tx, request.id, "reviewer_feedback")))
        throw decisionRefused("already_decided", "This request was decided or replaced a moment ago.");
      const message = await insertMessage(tx, {
        ticketId,
        kind: "reviewer",
        authorType: "user",
        authorId: input.actor.id,
        authorLabel: input.actor.email,
        channel: "app",
        body: note,
        approvalRequestId: request.id,
      });
      await moveTicket(tx, { ticketId, move: "send_back", reason: "reviewer_feedback" });
      return { ticketId, messageId: message!.id };
    });
  } catch (error) {
    if (isMoveRefusal(error)) throw decisionRefused("ticket_busy", error.message);
    throw error;
  }
}
