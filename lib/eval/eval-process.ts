// An evaluation graded in a process of its own: `npm run eval`'s script, with --no-store (the
// receipt comes back here, to be stored on the database of whoever asked) and an IPC channel for its
// progress. A grading is seconds to minutes of CPU and hundreds of MB of in-memory databases that
// must not stall or swell the web server whose worker takes the job; its memory goes back on exit.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";
import { GRADING_V8_FLAGS } from "../contracts/grading-flags";
import { ZReceipt } from "./receipt";
import type { TReleaseDecision } from "./decide-release";

/** The script, from the app's root (where the server, the worker and the tests run). */
export const EVAL_SCRIPT = "scripts/eval.ts";

/** Longer than any grading of the shipped datasets takes, shorter than the job's lock. */
export const EVAL_TIMEOUT_MS = 30 * 60 * 1000;

export interface TEvalProcessOptions {
  dataset: string;
  planner: "as-written" | "rule" | "model";
  model: string | null;
  trials: number;
}

/** What the script says over IPC while it grades. */
export const ZEvalProgress = z.object({ kind: z.literal("progress"), done: z.number().int(), total: z.number().int() });

const ZOutput = z.object({
  receipt: ZReceipt,
  decision: z.object({ outcome: z.string(), reason: z.string().nullable().optional() }).loose(),
  costUsd: z.number().nullable().default(null),
});

export type TEvalOutput = { receipt: z.infer<typeof ZReceipt>; decision: TReleaseDecision; costUsd: number | null };

function scriptArgs(options: TEvalProcessOptions, out: string): string[] {
  const args = ["--dataset", options.dataset, "--trials", String(options.trials), "--planner", options.planner, "--no-store", "--out", out];
  return options.model ? [...args, "--model", options.model] : args;
}

/** The last error line the process wrote (a stack's head), else its last line. */
function lastWords(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines.findLast((l) => /^\w*Error\b|^Dataset error/.test(l)) ?? lines.at(-1) ?? "").slice(0, 600);
}

/** Runs one grading; resolves with the receipt and decision it wrote, or rejects in words. */
export async function gradeInProcess(options: TEvalProcessOptions, onProgress: (done: number, total: number) => void, timeoutMs = EVAL_TIMEOUT_MS): Promise<TEvalOutput> {
  const dir = await mkdtemp(join(tmpdir(), "countersign-eval-"));
  const out = join(dir, "receipt.json");
  try {
    const code = await runScript(scriptArgs(options, out), onProgress, timeoutMs);
    // 0: eligible, 1: graded but held; anything else: no receipt.
    if (code.exit !== 0 && code.exit !== 1) throw new Error(`the grading stopped (${code.signal ?? `exit code ${code.exit}`})${code.stderr ? `: ${lastWords(code.stderr)}` : ""}`);
    return ZOutput.parse(JSON.parse(await readFile(out, "utf8"))) as TEvalOutput;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function runScript(args: string[], onProgress: (done: number, total: number) => void, timeoutMs: number): Promise<{ exit: number | null; signal: string | null; stderr: string }> {
  return new Promise((done, fail) => {
    // Node with tsx's loader and an IPC channel, through spawn() (Turbopack takes fork()'s path for a
    // module to bundle), run from the app's own files as npm start runs them.
    const script = resolve(/* turbopackIgnore: true */ process.cwd(), EVAL_SCRIPT);
    const child = spawn(process.execPath, ["--import", "tsx", "--expose-gc", ...GRADING_V8_FLAGS, script, ...args], { stdio: ["ignore", "ignore", "pipe", "ipc"] });
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-8192)));
    child.on("message", (message: unknown) => {
      const progress = ZEvalProgress.safeParse(message);
      if (progress.success) onProgress(progress.data.done, progress.data.total);
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.once("exit", (exit, signal) => {
      clearTimeout(timer);
      done({ exit, signal, stderr });
    });
  });
}
