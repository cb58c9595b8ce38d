-- Notifications for approvals: when a pending request's reminder was enqueued (set once, in the
-- statement that enqueues it, so a request is reminded once however many sweeps run).
ALTER TABLE "ApprovalRequest" ADD COLUMN "remindedAt" TIMESTAMP(3);

-- One webhook delivery per job (approval waiting, or expiring soon), and the sweep that finds
-- pending requests close to their expiry.
SELECT pgboss.create_queue('approval-notify', '{"policy":"standard"}');
SELECT pgboss.create_queue('remind-approvals', '{"policy":"standard"}');
