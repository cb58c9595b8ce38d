// The approval notifications: what each is about, and the ids that keep one event one message. A
// job retried, or enqueued twice, carries the same `webhook-id`, so a receiver that dedupes on it
// shows each event once (Standard Webhooks); the job's own id is derived the same way, so a second
// enqueue of an event while its job is kept adds nothing.
import { sha256Hex } from "./canonical";

export const APPROVAL_NOTIFICATIONS = {
  /** A pending request now waits for a person of its required role. Sent when it is created. */
  waiting: "approval.waiting",
  /** A pending request expires within the reminder's lead time. Sent once per request. */
  expiring: "approval.expiring",
} as const;
export type TApprovalNotification = (typeof APPROVAL_NOTIFICATIONS)[keyof typeof APPROVAL_NOTIFICATIONS];

export function isApprovalNotification(value: unknown): value is TApprovalNotification {
  return Object.values(APPROVAL_NOTIFICATIONS).includes(value as TApprovalNotification);
}

/** The `webhook-id` of an event: the same for every attempt and every duplicate job. */
export function notificationWebhookId(event: TApprovalNotification, approvalId: string): string {
  return `${event}.${approvalId}`;
}

/** The job's id: a UUID (the queue's id type) derived from the event and the request. */
export function notificationJobId(event: TApprovalNotification, approvalId: string): string {
  const h = sha256Hex(`countersign-notification\n${event}\n${approvalId}`);
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
