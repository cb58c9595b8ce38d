-- The routine job that tidies the state of published policy versions a scheduled version has
-- superseded (lib/jobs/definitions/retire-superseded.ts); the worker schedules it every minute.
SELECT pgboss.create_queue('retire-superseded', '{"policy":"standard"}');
