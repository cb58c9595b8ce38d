-- New states of the ticket lifecycle, runs and approvals. Their own migration: PostgreSQL does not let
-- a transaction use an enum value it added, and the next migration uses these.
ALTER TYPE "TicketStatus" ADD VALUE 'running' AFTER 'open';
ALTER TYPE "TicketStatus" ADD VALUE 'approved' AFTER 'completed';
ALTER TYPE "RunStatus" ADD VALUE 'interrupted';
ALTER TYPE "ApprovalStatus" ADD VALUE 'superseded';
ALTER TYPE "ApprovalStatus" ADD VALUE 'expired';
