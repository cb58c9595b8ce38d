// The runs waiting for a person's judgement: every run whose request a person rejected or edited (a
// changed reply, a lowered refund), and a share of those a person approved as they were – the share
// set by `annotation.approvalSharePercent`, chosen by the run's id so the same runs stay chosen. A run
// leaves the queue once it is annotated. Read from the decisions, so nothing has to be written when a
// person decides; a row is made only when the run is assigned or judged.
import { db as defaultDb, type Db } from "../db";
import type { TAnnotationSource } from "../contracts/reason-codes";
import { loadPolicySettings } from "../policy/settings";

export interface TAnnotationQueueRow {
  runId: string;
  ticketId: string;
  ticketNumber: number;
  subject: string;
  source: TAnnotationSource;
  decidedAt: Date;
  assignee: { id: string; label: string } | null;
}

/** Whether a run approved as it was is among the `percent` sampled: its id's first 32 bits, mod 100. */
export function sampledForAnnotation(runId: string, percent: number): boolean {
  return Number.parseInt(runId.replaceAll("-", "").slice(0, 8), 16) % 100 < percent;
}

/** How many decided requests are read at most: the newest, which is what a team judges first. */
const WINDOW = 500;

export async function listAnnotationQueue(input: { client?: Db; assigneeId?: string } = {}): Promise<TAnnotationQueueRow[]> {
  const client = input.client ?? defaultDb();
  const { "annotation.approvalSharePercent": share } = await loadPolicySettings(client);
  const requests = await client.approvalRequest.findMany({
    where: { runId: { not: null }, decisions: { some: { automatic: false } } },
    orderBy: { createdAt: "desc" },
    take: WINDOW,
    select: {
      runId: true,
      ticketId: true,
      editedFromId: true,
      decisions: { where: { automatic: false }, select: { decision: true, editedReply: true, createdAt: true } },
      ticket: { select: { number: true, subject: true } },
      run: { select: { annotation: { select: { verdict: true, assignee: { select: { id: true, name: true, email: true } } } } } },
    },
  });
  const rows = new Map<string, TAnnotationQueueRow>();
  for (const r of requests) {
    const annotation = r.run?.annotation;
    if (!r.runId || annotation?.verdict) continue;
    const source: TAnnotationSource | null = r.decisions.some((d) => d.decision === "reject")
      ? "rejected"
      : r.editedFromId || r.decisions.some((d) => d.editedReply !== null)
        ? "edited"
        : sampledForAnnotation(r.runId, share)
          ? "sampled"
          : null;
    const known = rows.get(r.runId);
    // A lowered refund is a second request of the same run: the stronger reason to look wins.
    if (!source || (known && known.source !== "sampled")) continue;
    const assignee = annotation?.assignee ? { id: annotation.assignee.id, label: annotation.assignee.name || annotation.assignee.email } : null;
    if (input.assigneeId && assignee?.id !== input.assigneeId) continue;
    const decidedAt = r.decisions.map((d) => d.createdAt).sort((a, b) => b.getTime() - a.getTime())[0]!;
    rows.set(r.runId, { runId: r.runId, ticketId: r.ticketId, ticketNumber: r.ticket.number, subject: r.ticket.subject, source, decidedAt, assignee });
  }
  return [...rows.values()];
}
