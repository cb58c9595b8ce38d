// npm start's last step, run by the shell in place of itself (`exec`) once scripts/start.ts has
// migrated, seeded and built: Next.js's server in this very process, so nothing else is left running
// beside it – no launcher holding the database it migrated with, no tsx. Ctrl-C reaches it with the
// terminal's process group, and a supervisor's SIGTERM through npm, which passes signals on; its exit
// code is npm start's. Plain JavaScript on purpose: loading TypeScript would start a compiler beside it.
import { createRequire } from "node:module";

process.env.NEXT_TELEMETRY_DISABLED = "1";
// The port and host scripts/start.ts checked (PORT, default 3000; HOSTNAME when given).
const port = process.env.PORT || "3000";
const host = process.env.HOSTNAME ? ["-H", process.env.HOSTNAME] : [];
process.argv = [process.argv[0], "next", "start", "-p", port, ...host];
createRequire(import.meta.url)("next/dist/bin/next");
