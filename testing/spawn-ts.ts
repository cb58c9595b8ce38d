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

export interface TScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript script to its end with exactly `env` as its environment, and answers its exit code and output. */
export function runTs(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<TScriptRun> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => done({ code, stdout, stderr }));
  });
}
