// Preloaded into the servers the browser suite starts (`node --require ./testing/exit-with-parent.cjs`:
// scripts/e2e-server.ts as playwright.config.ts and e2e/live-run.spec.ts start it, and the `next start`
// it starts in turn): the process stops itself with SIGTERM, as the harness would stop it, once the
// process that started it is gone (it has been adopted: its parent id changed). Without it a suite
// killed outright (SIGKILL, a CI job's time running out) leaves its servers running, holding their
// ports and databases, and the next run's servers cannot start on those ports.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, "SIGTERM");
}, 500).unref();
