// `npm run eval` on the embedded default while the server holds the database: the CLI grades, finds
// the data directory held, and stores its receipt through the server (POST /api/evals/receipts,
// signed with EVAL_SECRET). The receipt is on the server's database afterwards, with the release
// decision the server made from it; the route refuses a wrong signature, a stale timestamp and a body
// that is no receipt, and a replayed request stores nothing a second time. Real processes, real HTTP.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startAppServer, type TAppServer } from "../testing/app-server";
import { runTs } from "../testing/spawn-ts";
import { openDb } from "../lib/db";
import { signReceipt, RECEIPTS_ROUTE } from "../lib/eval/eval-cli";
import { REQUEST_SIGNATURE_HEADER, TIMESTAMP_HEADER } from "../lib/intake/request-signature";

const root = mkdtempSync(join(tmpdir(), "countersign-eval-server-"));
const dir = join(root, "pglite");
const SECRET = "e".repeat(40);
let server: TAppServer | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** Its header and two episodes of the shipped dataset: a small grading (held: not the pinned dataset). */
function smallDataset(): string {
  const path = join(root, "two-episodes.jsonl");
  writeFileSync(path, readFileSync("eval/episodes.jsonl", "utf8").split("\n").filter(Boolean).slice(0, 3).join("\n") + "\n");
  return path;
}

function post(origin: string, body: string, headers: Record<string, string>) {
  return fetch(`${origin}${RECEIPTS_ROUTE}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
}

const signed = (body: string, at = Math.floor(Date.now() / 1000), secret = SECRET) => ({
  [TIMESTAMP_HEADER]: String(at),
  [REQUEST_SIGNATURE_HEADER]: signReceipt(secret, at, body),
});

describe("npm run eval with the server holding the embedded database", () => {
  it("stores its receipt through the server, and the route takes only a signed, fresh receipt once", { timeout: 600_000 }, async () => {
    const env = { DATABASE_URL: "", PGLITE_DATA_DIR: dir, DATA_DIR: root, EVAL_SECRET: SECRET };
    server = await startAppServer(env);

    const cli = await runTs("scripts/eval.ts", ["--dataset", smallDataset(), "--out", join(root, "receipt.json")], {
      ...process.env,
      ...env,
      APP_URL: server.origin,
      LOG_LEVEL: "warn",
    });
    expect(cli.stdout).toMatch(/The database is in use by process \d+ \(the running server\?\): storing the receipt through it/);
    const id = /Receipt stored as eval run ([0-9a-f-]{36}) through the server/.exec(cli.stdout)?.[1];
    expect(id, cli.stdout + cli.stderr).toBeDefined();
    // Graded and stored, but held: two episodes are not the pinned dataset.
    expect(cli.code).toBe(1);
    const written = JSON.parse(readFileSync(join(root, "receipt.json"), "utf8")) as { receipt: { rows: unknown[] } };
    expect(written.receipt.rows).toHaveLength(2);

    // The route: a replay of one signed body answers the run it stored; wrong secret, stale, malformed refused.
    const body = JSON.stringify({ receipt: { ...(written.receipt as object), commit: "replayed" }, costUsd: 0 });
    const first = await post(server.origin, body, signed(body));
    expect(first.status).toBe(201);
    const firstId = ((await first.json()) as { id: string }).id;
    const replay = await post(server.origin, body, signed(body));
    expect(replay.status).toBe(200);
    expect(((await replay.json()) as { id: string }).id).toBe(firstId);
    expect((await post(server.origin, body, signed(body, undefined, "w".repeat(40)))).status).toBe(401);
    expect((await post(server.origin, body, signed(body, Math.floor(Date.now() / 1000) - 3600))).status).toBe(401);
    expect((await post(server.origin, body, { [TIMESTAMP_HEADER]: String(Math.floor(Date.now() / 1000)) })).status).toBe(401);
    const notReceipt = JSON.stringify({ receipt: { rows: "none" } });
    expect((await post(server.origin, notReceipt, signed(notReceipt))).status).toBe(400);

    // Stopped, the server lets the directory go: the runs are on it, each with the server's decision.
    await server.stop();
    server = undefined;
    const handle = openDb({ kind: "pglite", dir, dataDir: root });
    try {
      const runs = await handle.client.evalRun.findMany({ include: { decisions: true }, orderBy: { createdAt: "asc" } });
      expect(runs.map((r) => r.id)).toEqual([id, firstId]);
      expect(runs[0]!.passed + runs[0]!.failed).toBe(2);
      expect(runs.map((r) => r.decisions.map((d) => d.outcome))).toEqual([["hold"], ["hold"]]);
      expect(runs[0]!.decisions[0]!.reason).toMatch(/^dataset_drift:episodes 2/);
    } finally {
      await handle.close();
    }
  });
});
