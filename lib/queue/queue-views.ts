// The queue's views and the SLA a waiting ticket is held to. Pure: the page, the browser's table
// and the queries share these words.
import type { Role } from "../contracts/roles";

export const QUEUE_VIEWS = ["mine", "unassigned", "specialist", "approval", "stale", "handoff", "bypassed", "open"] as const;
export type TQueueView = (typeof QUEUE_VIEWS)[number];

export const VIEW_LABELS = {
  mine: "Mine",
  unassigned: "Unassigned",
  specialist: "Needs a specialist",
  approval: "Awaiting approval",
  stale: "Stale approvals",
  handoff: "Handed to a person",
  bypassed: "Bypassed",
  open: "All open",
} as const satisfies Record<TQueueView, string>;

export const VIEW_DESCRIPTIONS = {
  mine: "Open tickets assigned to you, oldest first: your worklist.",
  unassigned: "Open tickets nobody has claimed, oldest first.",
  specialist: "Requests waiting for a specialist's decision (refunds at or above the threshold), oldest first.",
  approval: "Tickets with a request waiting for a decision, oldest first.",
  stale:
    "Requests made under a policy or agent that has changed since: they can no longer be approved, so run the agent again. Oldest first.",
  handoff: "Tickets the agent handed to a person or that were blocked, with nothing to approve, oldest first.",
  bypassed: "Tickets intake kept away from the agent, oldest first.",
  open: "Every ticket not yet resolved, oldest first.",
} as const satisfies Record<TQueueView, string>;

export type TSlaKind = "approval" | "handoff";
export type TSlaState = "on_track" | "due_soon" | "overdue";

export interface TSla {
  kind: TSlaKind;
  targetHours: number;
  dueAt: Date;
  state: TSlaState;
}

/** Past this share of the target a ticket is due soon. */
export const DUE_SOON_SHARE = 0.75;

/** Statuses in which a ticket waits for a person with nothing to approve. */
export const HANDOFF_STATUSES = ["needs_human", "blocked", "bypassed"] as const;

/**
 * The SLA a ticket is held to, in wall-clock hours from its arrival: the approval target while a
 * request on it waits for a decision, the hand-off target while it waits for a person with nothing to
 * approve; none otherwise (new, running, settled, resolved).
 */
export function slaOf(
  ticket: { createdAt: Date; status: string; pendingRole: Role | null },
  targets: { approvalHours: number; handoffHours: number },
  now: Date,
): TSla | null {
  const kind: TSlaKind | null = ticket.pendingRole
    ? "approval"
    : (HANDOFF_STATUSES as readonly string[]).includes(ticket.status)
      ? "handoff"
      : null;
  if (!kind) return null;
  const targetHours = kind === "approval" ? targets.approvalHours : targets.handoffHours;
  const targetMs = targetHours * 3_600_000;
  const age = now.getTime() - ticket.createdAt.getTime();
  const state: TSlaState = age > targetMs ? "overdue" : age > targetMs * DUE_SOON_SHARE ? "due_soon" : "on_track";
  return { kind, targetHours, dueAt: new Date(ticket.createdAt.getTime() + targetMs), state };
}
