-- The ticket page shows the customer's earlier tickets: found by their email, whatever its case, newest
-- first, without reading every ticket.
CREATE INDEX "Ticket_lower_customerEmail_createdAt_idx" ON "Ticket"(lower("customerEmail"), "createdAt" DESC);

-- ... and by the customer's orders, for tickets sent from another address.
CREATE INDEX "Ticket_orderRef_idx" ON "Ticket"("orderRef");
