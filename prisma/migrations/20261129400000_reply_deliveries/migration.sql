-- Replies delivered to the customer's helpdesk or mailbox (lib/delivery). One delivery per released
-- reply: its id is stable across retries (the webhook-id, the Zendesk tag, the email Message-ID), and
-- its job (queue reply-deliver) is written in the transaction that releases the reply.
CREATE TABLE "ReplyDelivery" (
    "id" UUID NOT NULL,
    "outboxMessageId" UUID NOT NULL,
    "ticketId" UUID NOT NULL,
    "channel" TEXT,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "failureReason" TEXT,
    "lastError" TEXT,
    "externalRef" TEXT,
    "disclosed" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),
    CONSTRAINT "ReplyDelivery_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ReplyDelivery_state_check" CHECK ("state" IN ('pending', 'delivered', 'failed')),
    CONSTRAINT "ReplyDelivery_channel_check" CHECK ("channel" IS NULL OR "channel" IN ('outbox', 'webhook', 'zendesk', 'email'))
);
CREATE UNIQUE INDEX "ReplyDelivery_outboxMessageId_key" ON "ReplyDelivery"("outboxMessageId");
CREATE INDEX "ReplyDelivery_state_createdAt_idx" ON "ReplyDelivery"("state", "createdAt");
CREATE INDEX "ReplyDelivery_ticketId_idx" ON "ReplyDelivery"("ticketId");
ALTER TABLE "ReplyDelivery" ADD CONSTRAINT "ReplyDelivery_outboxMessageId_fkey" FOREIGN KEY ("outboxMessageId") REFERENCES "OutboxMessage"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "ReplyDelivery" ADD CONSTRAINT "ReplyDelivery_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "Ticket"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Where a ticket came from outside the app: the helpdesk's ticket id (Zendesk) or the customer's
-- message (email), so the reply goes back to the same thread.
CREATE TABLE "HelpdeskThread" (
    "ticketId" UUID NOT NULL,
    "channel" TEXT NOT NULL,
    "externalTicketId" TEXT,
    "messageId" TEXT,
    "subject" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "HelpdeskThread_pkey" PRIMARY KEY ("ticketId"),
    CONSTRAINT "HelpdeskThread_channel_check" CHECK ("channel" IN ('zendesk', 'email'))
);
ALTER TABLE "HelpdeskThread" ADD CONSTRAINT "HelpdeskThread_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "Ticket"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

SELECT pgboss.create_queue('reply-deliver', '{"policy":"standard"}');
