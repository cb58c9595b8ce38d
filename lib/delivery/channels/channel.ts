// What a channel is given and answers. A channel sends one reply and answers the reference the other
// side gave it, or throws: a DeliveryRefused is final (no retry can mend it: the Zendesk ticket is
// gone, the customer has no thread there), anything else is retried by the job queue with backoff.
export interface TOutgoingReply {
  /** Stable across retries: the webhook-id, the Zendesk tag, the email's Message-ID. */
  deliveryId: string;
  body: string;
  disclosed: boolean;
  ticket: { id: string; number: number; externalId: string | null; subject: string; customerEmail: string };
  /** For email, `messageId` is the customer's newest message and `references` the thread's Message-IDs, oldest first. */
  thread: {
    channel: string;
    externalTicketId: string | null;
    messageId: string | null;
    subject: string | null;
    references?: readonly string[];
  } | null;
}

export interface TChannel {
  name: "outbox" | "webhook" | "zendesk" | "email";
  send(reply: TOutgoingReply): Promise<string | null>;
}

export class DeliveryRefused extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = "DeliveryRefused";
  }
}

/** How long one attempt waits for the other side: well inside the delivery job's lock time. */
export const DELIVERY_TIMEOUT_MS = 15_000;
