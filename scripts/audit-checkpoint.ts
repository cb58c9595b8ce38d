// npm run audit:checkpoint: signs a checkpoint of the audit chain now (the job does it every minute,
// and the server at shutdown), and writes it to the database, the checkpoint file and the log.
import { db } from "../lib/db";
import { runScript } from "./run-script";
import { checkpointFile, takeCheckpoint } from "../lib/audit/checkpoint";

runScript(async () => {
  const result = await takeCheckpoint(db());
  if ("signed" in result)
    console.log(`Signed checkpoint ${result.signed.position}: ${result.signed.events} events covered, written to ${checkpointFile()}.`);
  else
    console.log(
      result.skipped === "busy"
        ? "Another process is signing a checkpoint right now; nothing done."
        : "Nothing new since the last checkpoint; nothing signed.",
    );
  return 0;
});
