// Grading an evaluation in a process of its own (scripts/grade-corpora.ts), for three reasons: the
// world the labelled questions and episodes are written against is the demo's seed data, which lib/
// may not import (a script may); a grading is seconds of CPU and hundreds of MB of in-memory
// databases, which must not stall or swell the web server whose worker takes the job (on the
// embedded database the worker runs in the server); and its memory goes back when it exits. The
// process reads nothing of the installation: it is sent the two corpora and answers the outcomes,
// over Node's IPC channel, with its progress on the way.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import type { TCorpusGrader, TGradingProgress, TGradingRequest, TGradingResult } from "../contracts/policy-evaluation";
import { GRADING_V8_FLAGS } from "../contracts/grading-flags";

/** The script, from the app's root (where the server, the worker and the tests run). */
export const GRADING_SCRIPT = "scripts/grade-corpora.ts";

/** Longer than any grading takes (two corpora, well under a minute each), shorter than the job's lock. */
export const GRADING_TIMEOUT_MS = 10 * 60 * 1000;

/** The argument that makes the script serve a grading (without it, importing the script does nothing). */
export const SERVE_FLAG = "--serve";

/** What the grading process says. */
export type TGradingMessage =
  { kind: "progress"; progress: TGradingProgress } | { kind: "result"; result: TGradingResult } | { kind: "error"; message: string };

/** Why the process stopped, from what it wrote to stderr: the last error line (a stack's head), else its last line. */
function lastWords(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const error = lines.findLast((l) => /^\w*Error\b/.test(l));
  return (error ?? lines.at(-1) ?? "").slice(0, 600);
}

/** A grader that runs each grading in a new process of `script` (under tsx), killed after `timeoutMs`. */
export function processGrader(options: { script?: string; timeoutMs?: number } = {}): TCorpusGrader {
  return (request: TGradingRequest, onProgress: (progress: TGradingProgress) => void) =>
    new Promise<TGradingResult>((done, fail) => {
      // Node with tsx's loader and an IPC channel: what fork() starts, but through spawn(), since
      // Turbopack takes fork()'s path for a module to bundle and fails the build on it (vercel/next.js#97952).
      // Run from the app's own files (as npm start runs), not traced into the build's output.
      const script = resolve(/* turbopackIgnore: true */ process.cwd(), options.script ?? GRADING_SCRIPT);
      const child = spawn(process.execPath, ["--import", "tsx", "--max-semi-space-size=4", ...GRADING_V8_FLAGS, script, SERVE_FLAG], {
        stdio: ["ignore", "ignore", "pipe", "ipc"],
      });
      let stderr = "";
      let settled = false;
      const settle = (end: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        end();
      };
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        settle(() => fail(new Error(`the grading took longer than ${(options.timeoutMs ?? GRADING_TIMEOUT_MS) / 1000} s and was stopped`)));
      }, options.timeoutMs ?? GRADING_TIMEOUT_MS);
      child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-8192)));
      child.on("message", (message: TGradingMessage) => {
        if (message.kind === "progress") onProgress(message.progress);
        else if (message.kind === "result") settle(() => done(message.result));
        else settle(() => fail(new Error(message.message)));
      });
      child.once("error", (error) => settle(() => fail(error)));
      child.once("exit", (code, signal) =>
        settle(() =>
          fail(
            new Error(
              `the grading process stopped (${signal ?? `exit code ${code}`}) before answering${stderr ? `: ${lastWords(stderr)}` : ""}`,
            ),
          ),
        ),
      );
      child.send({ kind: "grade", request });
    });
}
