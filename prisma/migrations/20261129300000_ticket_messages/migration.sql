-- Tickets as conversations: every message of a ticket, oldest first. The customer's first message is
-- the ticket's body (a trigger writes it with every new ticket, whichever path creates it); the agent's
-- drafts and the replies released to the helpdesk are written by triggers from the rows that are their
-- source of truth (a run's approval request, an outbox message), so no path can leave one out.
-- Follow-ups, reviewers' feedback and internal notes are written by lib/tickets/store/message-store.ts.
CREATE TYPE "TicketMessageKind" AS ENUM ('customer', 'agent_draft', 'reviewer', 'sent_reply', 'internal_note');

CREATE TABLE "TicketMessage" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "ticketId" UUID NOT NULL,
  "kind" "TicketMessageKind" NOT NULL,
  "authorType" TEXT NOT NULL,
  "authorId" TEXT,
  "authorLabel" TEXT NOT NULL,
  "channel" TEXT NOT NULL,
  "body" TEXT NOT NULL,
  "externalMessageId" TEXT,
  "runId" UUID,
  "approvalRequestId" UUID,
  "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "TicketMessage_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "TicketMessage_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "Ticket"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "TicketMessage_authorType_check" CHECK ("authorType" IN ('customer', 'agent', 'user', 'system'))
);

-- The helpdesk's own message id, once per ticket: a delivery repeated is one message.
CREATE UNIQUE INDEX "TicketMessage_ticketId_externalMessageId_key" ON "TicketMessage"("ticketId", "externalMessageId");
CREATE INDEX "TicketMessage_ticketId_createdAt_idx" ON "TicketMessage"("ticketId", "createdAt");

-- Why a pending request was superseded (lib/contracts/reason-codes.ts SUPERSEDE_REASONS); null for
-- requests superseded before it was recorded, and by a newer run.
ALTER TABLE "ApprovalRequest" ADD COLUMN "supersededReason" TEXT;

-- The customer's first message, with every ticket.
CREATE FUNCTION countersign_ticket_first_message() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "TicketMessage" ("ticketId", "kind", "authorType", "authorLabel", "channel", "body", "externalMessageId", "createdAt")
  VALUES (NEW."id", 'customer', 'customer', NEW."customerEmail", NEW."source"::text, NEW."body", NULL, NEW."createdAt");
  RETURN NULL;
END $$;
CREATE TRIGGER "Ticket_first_message" AFTER INSERT ON "Ticket" FOR EACH ROW EXECUTE FUNCTION countersign_ticket_first_message();

-- A run's draft, as a person is asked to approve it (not a person's own reply, nor a lowered refund's copy).
CREATE FUNCTION countersign_request_draft_message() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."runId" IS NOT NULL AND NEW."editedFromId" IS NULL AND NEW."draft" IS NOT NULL THEN
    INSERT INTO "TicketMessage" ("ticketId", "kind", "authorType", "authorId", "authorLabel", "channel", "body", "runId", "approvalRequestId", "createdAt")
    VALUES (NEW."ticketId", 'agent_draft', 'agent', NEW."runId"::text, 'agent', 'app', NEW."draft", NEW."runId", NEW."id", NEW."createdAt");
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "ApprovalRequest_draft_message" AFTER INSERT ON "ApprovalRequest" FOR EACH ROW EXECUTE FUNCTION countersign_request_draft_message();

-- A reply released to the helpdesk (the outbox): what the customer is sent.
CREATE FUNCTION countersign_outbox_reply_message() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "TicketMessage" ("ticketId", "kind", "authorType", "authorLabel", "channel", "body", "approvalRequestId", "createdAt")
  VALUES (NEW."ticketId", 'sent_reply', 'system', 'support team', 'outbox', NEW."body", NEW."approvalRequestId", NEW."createdAt");
  RETURN NULL;
END $$;
CREATE TRIGGER "OutboxMessage_reply_message" AFTER INSERT ON "OutboxMessage" FOR EACH ROW EXECUTE FUNCTION countersign_outbox_reply_message();

-- Existing tickets: their first message, their runs' drafts and their released replies.
INSERT INTO "TicketMessage" ("ticketId", "kind", "authorType", "authorLabel", "channel", "body", "createdAt")
SELECT t."id", 'customer', 'customer', t."customerEmail", t."source"::text, t."body", t."createdAt" FROM "Ticket" t;
INSERT INTO "TicketMessage" ("ticketId", "kind", "authorType", "authorId", "authorLabel", "channel", "body", "runId", "approvalRequestId", "createdAt")
SELECT r."ticketId", 'agent_draft', 'agent', r."runId"::text, 'agent', 'app', r."draft", r."runId", r."id", r."createdAt"
FROM "ApprovalRequest" r WHERE r."runId" IS NOT NULL AND r."editedFromId" IS NULL AND r."draft" IS NOT NULL;
INSERT INTO "TicketMessage" ("ticketId", "kind", "authorType", "authorLabel", "channel", "body", "approvalRequestId", "createdAt")
SELECT o."ticketId", 'sent_reply', 'system', 'support team', 'outbox', o."body", o."approvalRequestId", o."createdAt" FROM "OutboxMessage" o;

-- The reviewers' feedback a run read in its ticket's thread, quoted as written ([{ id, at, text }]).
ALTER TABLE "AgentRun" ADD COLUMN "feedback" JSONB;
