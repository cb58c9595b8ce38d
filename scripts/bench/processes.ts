// What `npm start` and `npm run worker` leave running, as a supervisor sees them: every process in the
// tree under npm, with its resident memory (RSS, from /proc), once the server answers /api/health (or
// the worker takes jobs) and has sat idle a few seconds; then SIGTERM to npm, as a supervisor stops it,
// and whether anything of the tree is left after it. `npm start` runs on an embedded database of its
// own (a temporary DATA_DIR); the worker on the bench's PostgreSQL database.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { progress } from "./report";

export interface TProcessRss {
  pid: number;
  command: string;
  rssMb: number;
}

export interface TTreeFigure {
  processes: TProcessRss[];
  totalMb: number;
  /** Whether the launcher (scripts/start.ts) or tsx's command is still among them. */
  deadWeight: TProcessRss[];
  /** Processes of the tree still alive 30 s after SIGTERM to npm. */
  leftAfterStop: number;
  exitCode: number | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function parentOf(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
  } catch {
    return null;
  }
}

/** Every live process descending from `root`, itself included. */
function tree(root: number): number[] {
  const pids = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  const found = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const pid of pids)
      if (!found.has(pid) && found.has(parentOf(pid) ?? -1)) {
        found.add(pid);
        grew = true;
      }
  }
  return [...found].filter((pid) => parentOf(pid) !== null);
}

function describe(pid: number): TProcessRss | null {
  try {
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    return { pid, command: command.length > 90 ? `${command.slice(0, 87)}…` : command, rssMb: Math.round(rss / 1024) };
  } catch {
    return null;
  }
}

/** Starts `npm run <script>`, waits until `ready`, measures the tree idle, stops it with SIGTERM. */
async function measureTree(script: string, env: NodeJS.ProcessEnv, ready: (child: ChildProcess) => Promise<void>): Promise<TTreeFigure> {
  const child = spawn("npm", ["run", "--silent", script], { env, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let pids: number[] = [];
  try {
    await ready(child);
    await sleep(5_000);
    const processes = tree(child.pid!)
      .map(describe)
      .filter((p): p is TProcessRss => p !== null);
    const deadWeight = processes.filter((p) => /scripts\/start\.ts|tsx\/dist\/cli|\/\.bin\/tsx /.test(p.command));
    pids = processes.map((p) => p.pid);
    child.kill("SIGTERM");
    const exitCode = await Promise.race([exited, sleep(30_000).then(() => null)]);
    // A helper of a process that exited (tsx's esbuild service) goes when it sees its parent gone: a few seconds.
    let leftAfterStop = pids.length;
    for (let i = 0; i < 20 && leftAfterStop; i++) {
      await sleep(250);
      leftAfterStop = pids.filter((pid) => parentOf(pid) !== null).length;
    }
    return { processes, totalMb: processes.reduce((n, p) => n + p.rssMb, 0), deadWeight, leftAfterStop, exitCode };
  } finally {
    // Whatever SIGTERM left, orphans included (no longer under npm once it has gone).
    for (const pid of new Set([...pids, ...tree(child.pid!)])) if (parentOf(pid) !== null) process.kill(pid, "SIGKILL");
  }
}

function lines(child: ChildProcess, match: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`not ready within ${timeoutMs / 1000} s: ${seen.slice(-400)}`)), timeoutMs);
    const read = (chunk: Buffer) => {
      seen += chunk.toString();
      if (!match.test(seen)) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`exited (${code}) before it was ready: ${seen.slice(-400)}`))));
  });
}

/** A port nobody listens on now, as the system hands them out. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** `npm start` on an embedded database of its own (it builds first when the build is not current). */
export async function measureStart(givenPort?: number): Promise<TTreeFigure> {
  const port = givenPort ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), "countersign-start-"));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dir };
  delete env.DATABASE_URL;
  delete env.PGLITE_DATA_DIR;
  progress(`npm start on port ${port}, embedded database in ${dir} (builds first if the build is not current)…`);
  try {
    return await measureTree("start", env, async (child) => {
      await lines(child, /Serving Countersign/, 15 * 60_000);
      for (let i = 0; i < 600; i++) {
        const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
        await sleep(200);
      }
      throw new Error("/api/health did not answer within 2 minutes");
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm run worker` on a PostgreSQL database. */
export async function measureWorker(url: string): Promise<TTreeFigure> {
  progress("npm run worker…");
  return measureTree("worker", { ...process.env, DATABASE_URL: url }, (child) => lines(child, /is taking jobs/, 120_000));
}

export function describeTree(name: string, figure: TTreeFigure): string {
  const each = figure.processes.map((p) => `    ${String(p.rssMb).padStart(5)} MB  ${p.pid}  ${p.command}`).join("\n");
  return `${name}: ${figure.processes.length} process(es), ${figure.totalMb} MB in all; after SIGTERM: exit ${figure.exitCode}, ${figure.leftAfterStop} left\n${each}`;
}
