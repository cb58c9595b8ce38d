// pgbench as the reference for the write path: single-row INSERTs into a scratch table, and the
// executor's own statements replayed as a script. The script is derived at bench time from two
// recorded executor calls on pool clones k1 and k2, so it follows the executor whatever it becomes:
//
//   - a parameter equal in both calls is a constant: inlined as a literal;
//   - the ids of the clone (approval, ticket, proposal, decision, order) become the same id for the
//     pgbench client's own clone k, by substituting :bench_k into the text;
//   - values the executor derives from the clone (the idempotency key, the digest) or makes afresh
//     (a new row's uuid) become a value of the same shape that is unique per k, so every pgbench
//     transaction writes what an execution writes: the same statements, rows and index entries;
//   - timestamps stay as recorded.
// Whatever else differs between the two calls cannot be templated, and the bench says so rather than
// measure something else. Each client executes clone base + client_id + 16·j in its j-th transaction
// (pgbench keeps a client's variables from one transaction to the next), so no two transactions share
// an approval. The protocol is the executor's: when its statements are prepared (named, parsed and
// planned once per connection) pgbench runs with -M prepared, and a literal that contains the clone's
// number becomes a concatenation around it (pgbench's variables are parameters there, and a parameter
// inside a quoted literal would be text); otherwise -M simple, one round trip per statement as sent.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { TStatement } from "./recording-db";

// pg's own conversion of a parameter to its text form (what the driver sends for it).
const { prepareValue } = createRequire(import.meta.url)("pg/lib/utils.js") as { prepareValue(value: unknown): unknown };

export const PGBENCH = process.env.PGBENCH ?? "/usr/bin/pgbench";
const K_VAR = "bench_k";

export interface TPgbenchResult {
  tps: number;
  transactions: number;
  failed: number;
  latencyMs: number;
  aborted: boolean;
  output: string;
}

export type TProtocol = "simple" | "prepared";

/** Runs pgbench with a script: -n (no vacuum), -M simple (or prepared), `clients` clients on 2 threads
 * for `seconds` (or `transactions` per client). */
export async function runPgbench(
  url: string,
  script: string,
  opts: { clients: number; seconds?: number; transactions?: number; defines?: Record<string, string | number>; protocol?: TProtocol },
): Promise<TPgbenchResult> {
  const dir = mkdtempSync(join(tmpdir(), "countersign-pgbench-"));
  const file = join(dir, "script.sql");
  writeFileSync(file, script);
  const u = new URL(url);
  const args = [
    "-n",
    "-M",
    opts.protocol ?? "simple",
    "-c",
    String(opts.clients),
    "-j",
    "2",
    ...(opts.transactions ? ["-t", String(opts.transactions)] : ["-T", String(opts.seconds)]),
    "-f",
    file,
  ];
  for (const [k, v] of Object.entries(opts.defines ?? {})) args.push("-D", `${k}=${v}`);
  args.push("-h", u.hostname, "-p", u.port || "5432", "-U", decodeURIComponent(u.username || "postgres"), u.pathname.slice(1));
  const env = { ...process.env, ...(u.password ? { PGPASSWORD: decodeURIComponent(u.password) } : {}) };
  try {
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve, reject) => {
      const child = spawn(PGBENCH, args, { env, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (d: Buffer) => (output += d.toString()));
      child.stderr.on("data", (d: Buffer) => (output += d.toString()));
      child.on("error", reject);
      child.on("exit", (c) => resolve({ code: c ?? 1, output }));
    });
    const num = (re: RegExp) => Number(re.exec(output)?.[1] ?? Number.NaN);
    const result: TPgbenchResult = {
      tps: num(/tps = ([\d.]+) \(without initial connection time\)/),
      transactions: num(/number of transactions actually processed: (\d+)/),
      failed: num(/number of failed transactions: (\d+)/) || 0,
      latencyMs: num(/latency average = ([\d.]+) ms/),
      aborted: code !== 0 || /aborted/.test(output),
      output,
    };
    if (!Number.isFinite(result.tps))
      throw new Error(`pgbench gave no figure (exit ${code}): ${output.trim().split("\n").slice(-3).join(" / ")}`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A pgbench script of single-row INSERTs (autocommit) into `table`. */
export function insertScript(table: string): string {
  return `INSERT INTO ${table} (note) VALUES ('one row');\n`;
}

export const SCRATCH_TABLE_SQL = (table: string) =>
  `CREATE TABLE ${table} (id bigserial PRIMARY KEY, note text NOT NULL, at timestamptz NOT NULL DEFAULT now())`;

// ───────────────────────── the executor's statements as a script ─────────────────────────

/** What a recorded call's clone is made of: each exact string, and how pgbench names it for clone k. */
export interface TKnownValue {
  /** The value in the recorded call. */
  value: string;
  /** The value for the pgbench client's clone, as text containing :bench_k (k is 12 digits). */
  render: string;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const HEX64 = /\b[0-9a-f]{64}\b/g;
const ISO_TIME = /\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d(?::?\d\d)?)?/g;

/** The literal pg would send for a parameter, as SQL text (an untyped literal, like an untyped parameter). */
function literal(value: unknown): string {
  const prepared = prepareValue(value);
  if (prepared === null || prepared === undefined) return "NULL";
  const text = Buffer.isBuffer(prepared) ? `\\x${prepared.toString("hex")}` : String(prepared);
  return `'${text.replaceAll("'", "''")}'`;
}

/** Replaces $n placeholders outside quoted literals and identifiers. */
function inline(text: string, literals: string[]): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      const stop = end === -1 ? text.length : end + 1;
      out += text.slice(i, stop);
      i = stop - 1;
      continue;
    }
    const m = c === "$" ? /^\$(\d+)/.exec(text.slice(i)) : null;
    if (m) {
      const n = Number(m[1]);
      if (n < 1 || n > literals.length) throw new Error(`statement refers to $${n} with ${literals.length} parameters`);
      out += literals[n - 1];
      i += m[0].length - 1;
      continue;
    }
    out += c;
  }
  return out;
}

/**
 * Tokenises a call's SQL (values inlined): its clone's known values become {K0}, {K1} …; other uuids
 * and 64-hex digests become {U0}, {H0} … by first appearance; timestamps become {T}. Two calls that
 * did the same work on different clones tokenise to the same text.
 */
function tokenise(sql: string, known: TKnownValue[]): { text: string; uuids: string[]; hashes: string[] } {
  let text = sql;
  // Longest first, so a value that contains another (a stream name containing a ticket id) wins.
  const order = known.map((v, i) => ({ ...v, i })).sort((a, b) => b.value.length - a.value.length);
  for (const v of order) text = text.split(v.value).join(`{K${v.i}}`);
  const uuids: string[] = [];
  text = text.replace(UUID, (u) => {
    const low = u.toLowerCase();
    if (!uuids.includes(low)) uuids.push(low);
    return `{U${uuids.indexOf(low)}}`;
  });
  const hashes: string[] = [];
  text = text.replace(HEX64, (h) => {
    if (!hashes.includes(h)) hashes.push(h);
    return `{H${hashes.indexOf(h)}}`;
  });
  text = text.replace(ISO_TIME, "{T}");
  return { text, uuids, hashes };
}

export interface TExecutorScript {
  script: string;
  statements: number;
  /** How pgbench must send it: prepared when the executor prepares its statements. */
  protocol: TProtocol;
  /** Which fresh values the script makes per transaction (uuids, 64-hex values). */
  fresh: { uuids: number; hashes: number };
}

/**
 * The pgbench script for the recorded calls `a` and `b` (the same executor, clones ka and kb). Throws
 * when the two calls differ in a way the script cannot follow.
 */
export function executorScript(
  a: { statements: TStatement[]; known: TKnownValue[] },
  b: { statements: TStatement[]; known: TKnownValue[] },
): TExecutorScript {
  if (a.statements.length !== b.statements.length)
    throw new Error(
      `two executions sent ${a.statements.length} and ${b.statements.length} statements: the executor's work varies between calls`,
    );
  // BEGIN and COMMIT carry no plan; the statements that do decide the protocol, all alike.
  const planned = a.statements.filter((s) => !/^\s*(BEGIN|COMMIT|ROLLBACK)\b/i.test(s.text));
  const protocol: TProtocol = planned.length > 0 && planned.every((s) => s.prepared) ? "prepared" : "simple";
  if (protocol === "simple" && planned.some((s) => s.prepared))
    throw new Error("the executor prepares some of its statements and not others: pgbench runs a script one way");
  if (a.known.length !== b.known.length) throw new Error("the two clones are described differently");
  const lines: string[] = [];
  let uuidCount = 0;
  let hashCount = 0;
  // Fresh values are numbered across the whole transaction: a uuid made once and used twice stays one.
  const freshUuids: string[] = [];
  const freshHashes: string[] = [];
  for (let s = 0; s < a.statements.length; s++) {
    const sa = a.statements[s]!;
    const sb = b.statements[s]!;
    const sqlA = inline(sa.text, sa.values.map(literal));
    const sqlB = inline(sb.text, sb.values.map(literal));
    const ta = tokenise(sqlA, a.known);
    const tb = tokenise(sqlB, b.known);
    if (ta.text !== tb.text) {
      throw new Error(
        `statement ${s + 1} of the executor differs between two calls in a way the bench cannot template: ${firstDifference(ta.text, tb.text)}`,
      );
    }
    // A uuid or digest equal in both calls is a constant (the reviewer's id, a setting's hash); one that
    // differs is made by the call and must be unique per transaction.
    let text = sqlA;
    const order = a.known.map((v, i) => ({ ...v, i })).sort((x, y) => y.value.length - x.value.length);
    for (const v of order) text = text.split(v.value).join(`\u0000K${v.i}\u0000`);
    text = text.replace(UUID, (u) => {
      const i = ta.uuids.indexOf(u.toLowerCase());
      if (ta.uuids[i] === tb.uuids[i]) return u;
      if (!freshUuids.includes(u.toLowerCase())) freshUuids.push(u.toLowerCase());
      const n = freshUuids.indexOf(u.toLowerCase());
      uuidCount = Math.max(uuidCount, n + 1);
      // fresh uuid n of clone k: f<n>…-<k>
      return `f${String(n).padStart(7, "0")}-0000-4000-9000-:${K_VAR}`;
    });
    text = text.replace(HEX64, (h) => {
      const i = ta.hashes.indexOf(h);
      if (ta.hashes[i] === tb.hashes[i]) return h;
      if (!freshHashes.includes(h)) freshHashes.push(h);
      const n = freshHashes.indexOf(h);
      hashCount = Math.max(hashCount, n + 1);
      return `${String(n + 1).padStart(52, "f")}:${K_VAR}`;
    });
    text = text.replace(/\u0000K(\d+)\u0000/g, (_, i: string) => a.known[Number(i)]!.render);
    if (new RegExp(`:${K_VAR}[A-Za-z0-9_]`).test(text))
      throw new Error(`statement ${s + 1}: a clone's value runs into the text after it; pgbench would misread :${K_VAR}`);
    const stray = /:(client_id|scale|nclients|random_seed|default_seed|bench_\w+)\b/g;
    for (const m of text.matchAll(stray))
      if (m[1] !== K_VAR) throw new Error(`statement ${s + 1} contains :${m[1]}, which pgbench would replace`);
    if (protocol === "prepared") text = splitAroundClone(text);
    lines.push(`${text.trim().replace(/;\s*$/, "")};`);
  }
  return { script: lines.join("\n") + "\n", statements: a.statements.length, protocol, fresh: { uuids: uuidCount, hashes: hashCount } };
}

/**
 * For -M prepared, where pgbench's variables become parameters: each quoted literal containing the
 * clone's number becomes a concatenation around it, `'ab:bench_kcd'` → `('ab' || :bench_k::text || 'cd')`,
 * the same value built at execution time. In that mode pgbench takes every `:name` for a parameter,
 * quoted or not (`"policyDecision":null` in a JSON literal), so a colon before a name is split off too.
 */
export function splitAroundClone(text: string): string {
  const variable = `:${K_VAR}`;
  return text.replace(/'(?:[^']|'')*'/g, (quoted) => {
    const body = quoted.slice(1, -1);
    if (!/:[A-Za-z_]/.test(body)) return quoted;
    const parts = body.split(variable).map((part) =>
      part
        .split(/(?<=:)(?=[A-Za-z_])/)
        .map((piece) => `'${piece}'`)
        .join(" || "),
    );
    return `(${parts.join(` || ${variable}::text || `)})`;
  });
}

/** The pgbench preamble that gives each transaction its own clone: base + client_id + clients·j. */
export function cloneCounter(base: number, clients: number): { preamble: string; defines: Record<string, number> } {
  return {
    preamble: `\\set bench_j :bench_j + 1\n\\set ${K_VAR} ${base} + :client_id + ${clients} * :bench_j\n`,
    defines: { bench_j: -1 },
  };
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `…${a.slice(Math.max(0, i - 60), i + 60)}… vs …${b.slice(Math.max(0, i - 60), i + 60)}…`;
}
