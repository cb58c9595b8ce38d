// The shared ending of every command in scripts/: run main, close the database (an open PGlite keeps
// the process alive), exit with main's code; on an error print one line a person can act on.
import { closeDb, DataDirInUse } from "../lib/db";
import { TicketMoveRefused } from "../lib/tickets/lifecycle";
import { describeEnvError } from "../lib/env";

export function runScript(main: () => Promise<number>, describe: (error: unknown) => string | undefined = () => undefined): void {
  // A main that throws before its first await is handled like one that rejects.
  Promise.resolve()
    .then(main)
    .then(async (code) => {
      await closeDb();
      process.exit(code);
    })
    .catch(async (error) => {
      // Expected refusals are one line for a person; anything else keeps its stack.
      const expected = error instanceof DataDirInUse || error instanceof TicketMoveRefused ? error.message : undefined;
      console.error(describe(error) ?? expected ?? describeEnvError(error) ?? error);
      await closeDb().catch(() => {});
      process.exit(2);
    });
}
