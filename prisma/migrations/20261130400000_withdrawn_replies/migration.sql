-- A released reply whose refund failed at the payment provider before the reply was sent is withdrawn:
-- its delivery is never attempted and the outbox no longer lists it (lib/approvals/settle-refund.ts).
ALTER TABLE "ReplyDelivery" DROP CONSTRAINT "ReplyDelivery_state_check";
ALTER TABLE "ReplyDelivery" ADD CONSTRAINT "ReplyDelivery_state_check" CHECK ("state" IN ('pending', 'delivered', 'failed', 'withdrawn'));
