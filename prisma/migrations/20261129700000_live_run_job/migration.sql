-- A run started from the ticket page ("Run agent") is a job of its own (lib/jobs/definitions/live-run.ts):
-- the request that asked for it returns at once, and the run goes on whatever becomes of the request.
SELECT pgboss.create_queue('live-run', '{"policy":"standard"}');
