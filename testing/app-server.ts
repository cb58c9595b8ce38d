// testing/logged-server.ts as a child process with settings of its own, for tests that need the app's
// route handlers behind a real HTTP server (the request entry hook included) and nothing else.
import { spawn, type ChildProcess } from "node:child_process";
import { killHard } from "./spawn-ts";

export interface TAppServer {
  origin: string;
  stop(): Promise<void>;
}

/** Starts the server with `env` on top of the test's own (DATABASE_URL: a clone of its own, or "" for in-memory PGlite). */
export async function startAppServer(env: Record<string, string | undefined>): Promise<TAppServer> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "testing/logged-server.ts"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LOG_LEVEL: "info", ...env },
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const origin = await new Promise<string>((resolve, reject) => {
    let partial = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      partial += chunk.toString();
      const complete = partial.split("\n");
      partial = complete.pop()!;
      for (const text of complete) {
        const line = JSON.parse(text) as { msg?: string; port?: number };
        if (line.msg === "listening") resolve(`http://127.0.0.1:${line.port}`);
      }
    });
    child.once("exit", (code) => reject(new Error(`the server exited (${code}): ${stderr}`)));
  });
  child.stdout!.resume();
  return { origin, stop: () => killHard(child) };
}
