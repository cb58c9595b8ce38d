import { spawn, type ChildProcess } from "node:child_process";

/**
 * Starts a TypeScript script as one node process (tsx as a loader, not its CLI, which would put the
 * script in a grandchild that a SIGKILL to the child leaves running).
 */
export function spawnTs(script: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", script, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
}

/** SIGKILL, and wait until the process is gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
}
