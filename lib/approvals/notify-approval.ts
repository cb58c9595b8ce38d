// Approval notifications: a Slack-compatible incoming-webhook message (`{ "text": … }`) posted to the
// configured URL when a request starts waiting for a person, and again before it expires. Each is a
// job (queue `approval-notify`), enqueued in the transaction that created the request or recorded the
// reminder, so it is delivered at least once: a failed attempt throws and the queue retries it with
// backoff, carrying the same `webhook-id` (lib/contracts/approval-notification.ts).
//
// Signed the Standard Webhooks way (lib/intake/webhook-signature.ts, the signer the app already
// uses for its outbox answers) with the notification secret, a fresh timestamp per attempt.
//
// What a message carries: the ticket's number and link, what waits (a refund's amount, or a reply),
// the role that may decide it and when it expires. Never the approval digest (deciding needs the
// page, signed in, and the digest the page shows), never a secret, never the customer's email or the
// ticket's text: the link is all a person needs, and it opens only for someone signed in.
//
// Delivery: any answer other than 2xx, a redirect included (a signed message is not forwarded to an
// address nobody configured), and no answer within NOTIFY_TIMEOUT_MS (post-notification.ts), fail the attempt. A 4xx is
// retried like a 5xx: an incoming webhook's usual 4xx (404 or 410 for a mistyped or revoked URL) is
// mended by correcting the setting, and each attempt reads the settings afresh; the attempts are
// bounded (its definition, lib/jobs/definitions/approval-notify.ts), and a job that fails for good stays on Admin → Jobs with its error.
// The target is checked again at each attempt (lib/policy/webhook-target.ts) and the connection made
// to the address checked; a receiver that gives no HTTP answer (refused, reset, timed out, another
// protocol) is one error, "no HTTP answer", so the error does not tell an open port from a closed one.
import type { Db } from "../db";
import { db as defaultDb } from "../db";
import { appBaseUrl } from "../env";
import { ROLE_LABELS, type Role } from "../contracts/roles";
import { APPROVAL_NOTIFICATIONS, notificationWebhookId, type TApprovalNotification } from "../contracts/approval-notification";
import { loadNotificationSettings, NOTIFY_URL_KEY } from "../policy/notification-settings";
import { postNotification } from "./post-notification";

export interface TNotificationFacts {
  event: TApprovalNotification;
  approvalId: string;
  ticketId: string;
  ticketNumber: number;
  kind: "refund" | "reply";
  /** The refund's amount, for a refund request. */
  refund: { amountCents: number; currency: string } | null;
  requiredRole: Role;
  expiresAt: Date;
}

function amount(cents: number, currency: string): string {
  return `${Math.floor(cents / 100).toLocaleString("en-US")}.${String(cents % 100).padStart(2, "0")} ${currency}`;
}

const utc = (at: Date) => `${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 16)} UTC`;

/** Slack's mrkdwn treats these three as markup; everything else is text. */
const escapeSlack = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** The message: Slack reads `text`; other receivers may read the same facts under `countersign`. */
export function approvalNotificationBody(facts: TNotificationFacts, baseUrl: string) {
  const ticketUrl = `${baseUrl}/tickets/${facts.ticketId}`;
  const role = ROLE_LABELS[facts.requiredRole].toLowerCase();
  const what =
    facts.kind === "refund" && facts.refund
      ? `a refund of ${amount(facts.refund.amountCents, facts.refund.currency)}`
      : "a reply to the customer";
  const headline = facts.event === APPROVAL_NOTIFICATIONS.waiting ? "Approval waiting" : "Approval expiring soon";
  const text = `${headline}: ticket #${facts.ticketNumber}, ${what}, needs a ${role}'s approval. It expires ${utc(facts.expiresAt)}. <${escapeSlack(ticketUrl)}|Open ticket #${facts.ticketNumber}>`;
  return {
    text,
    countersign: {
      event: facts.event,
      ticket: { number: facts.ticketNumber, url: ticketUrl },
      waiting: facts.kind,
      ...(facts.refund ? { refund: facts.refund } : {}),
      requiredRole: facts.requiredRole,
      expiresAt: facts.expiresAt.toISOString(),
    },
  };
}

export type TDeliveryResult = "delivered" | "skipped:no_webhook" | "skipped:not_pending" | "skipped:no_request";

/**
 * Delivers one notification: the job's handler. Reads the settings and the request now (a request
 * decided, superseded or expired meanwhile is no longer announced), posts the signed message, and
 * throws on anything but a 2xx so the queue retries.
 */
export async function deliverApprovalNotification(input: {
  approvalId: string;
  event: TApprovalNotification;
  client?: Db;
  now?: () => Date;
}): Promise<TDeliveryResult> {
  const client = input.client ?? defaultDb();
  const settings = await loadNotificationSettings(client);
  const url = settings[NOTIFY_URL_KEY];
  if (!url) return "skipped:no_webhook";
  const request = await client.approvalRequest.findUnique({
    where: { id: input.approvalId },
    select: {
      id: true,
      ticketId: true,
      kind: true,
      status: true,
      requiredRole: true,
      expiresAt: true,
      ticket: { select: { number: true } },
      proposal: { select: { amountCents: true, currency: true } },
    },
  });
  if (!request) return "skipped:no_request";
  if (request.status !== "pending") return "skipped:not_pending";
  const body = approvalNotificationBody(
    {
      event: input.event,
      approvalId: request.id,
      ticketId: request.ticketId,
      ticketNumber: request.ticket.number,
      kind: request.kind,
      refund: request.proposal ? { amountCents: request.proposal.amountCents, currency: request.proposal.currency } : null,
      requiredRole: request.requiredRole,
      expiresAt: request.expiresAt,
    },
    appBaseUrl(),
  );
  await postNotification({
    settings,
    id: notificationWebhookId(input.event, request.id),
    body,
    what: "approval notification",
    now: input.now,
  });
  return "delivered";
}
