// Tamper evidence against someone who holds the database but not the signing key: each case changes
// rows as the database's superuser could (triggers off), and `npm run audit:verify` must name it.
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../testing/db";
import { untilCheckpointCoversAll, testAuditAction } from "../../testing/audit";
import { ownerUrl } from "../../testing/postgres";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { useDb, closeDb } from "../db";
import { decideApproval } from "../approvals/decide-approval";
import { executeApprovedRefund } from "../ledger/execute-approved-refund";
import { auditVerifyReport, describeProblem } from "./audit-verify-report";
import { verifyAuditChain } from "./verify-audit-chain";
import { verifyIncrementally } from "./verify-incrementally";
import { keyIdOf, takeCheckpoint, type TSigningKey } from "./checkpoint";
import { auditContentHash, auditLinkHash, GENESIS_HASH, recordAuditEvent } from "./record-audit-event";

interface TWorld {
  db: TestDb;
  key: TSigningKey;
  dir: string;
  file: string;
  publicKeyFile: string;
}

let world: TWorld | undefined;
afterEach(async () => {
  await closeDb();
  world = undefined;
});

/** A database with demo data, one executed refund, and a signed checkpoint over all of it. */
async function checkpointedWorld(): Promise<TWorld> {
  const db = await createTestDb(seedDemo);
  useDb(db);
  const request = await approvalFor(db.client, await tabletTicket(db.client, await freshOrder(db.client)));
  await decideApproval({
    approvalId: request.id,
    decision: "approve",
    digest: request.digest,
    actor: await user(db.client, "REVIEWER"),
    client: db.client,
  });
  expect(
    await executeApprovedRefund({ approvalId: request.id, actor: { type: "system", id: "refund-job" }, client: db.client }),
  ).toMatchObject({ outcome: "refund_created" });
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const key = {
    privateKey,
    publicKey,
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    keyId: keyIdOf(publicKey),
  };
  const dir = mkdtempSync(join(tmpdir(), "audit-"));
  const publicKeyFile = join(dir, "key.pub.pem");
  writeFileSync(publicKeyFile, key.publicKeyPem);
  world = { db, key, dir, file: join(dir, "checkpoints.jsonl"), publicKeyFile };
  await untilCheckpointCoversAll(db.client);
  expect(await takeCheckpoint(db.client, { key, file: world.file, log: () => {} })).toHaveProperty("signed");
  return world;
}

async function verify(w: TWorld) {
  const lines: string[] = [];
  const code = await auditVerifyReport(w.db.client, (l) => lines.push(l), { publicKeyFile: w.publicKeyFile, file: w.file });
  return { code, text: lines.join("\n") };
}

/** Runs SQL as the database's owner with triggers off: what someone holding the superuser can do. */
async function asSuperuser(w: TWorld, sql: string, params: unknown[] = []) {
  if (w.db.pglite) {
    await w.db.pglite.transaction(async (tx) => {
      await tx.exec("SET LOCAL session_replication_role = replica");
      await tx.query(sql, params);
    });
    return;
  }
  const client = new pg.Client({ connectionString: ownerUrl(w.db.url!) });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL session_replication_role = replica");
    await client.query(sql, params);
    await client.query("COMMIT");
  } finally {
    await client.end();
  }
}

describe("audit:verify against someone who holds the database", { timeout: 120_000 }, () => {
  it("passes an untouched chain, and reports events after the latest checkpoint as an unverified tail", async () => {
    const w = await checkpointedWorld();
    expect(await verify(w)).toMatchObject({ code: 0, text: expect.stringContaining("Unverified tail: 0 events") });
    await w.db.client.$transaction((tx) =>
      recordAuditEvent(tx, { actorType: "system", action: testAuditAction("later"), subjectType: "test" }),
    );
    await w.db.client.$transaction((tx) =>
      recordAuditEvent(tx, { actorType: "system", action: testAuditAction("later"), subjectType: "test" }),
    );
    const after = await verify(w);
    expect(after.code).toBe(0);
    expect(after.text).toContain("Unverified tail: 2 events after the latest checkpoint");
  });

  it("names a truncated tail: the last events covered by a checkpoint deleted", async () => {
    const w = await checkpointedWorld();
    await asSuperuser(w, `DELETE FROM "AuditEvent" WHERE seq IN (SELECT seq FROM "AuditEvent" ORDER BY txid DESC, seq DESC LIMIT 3)`);
    const { code, text } = await verify(w);
    expect(code).toBe(1);
    expect(text).toMatch(/tail truncated: checkpoint 1 signed \d+ events in its window, \d+ remain, and nothing follows them/);
  });

  it("names a re-hashed chain: an event forged and every hash after it in its stream recomputed", async () => {
    const w = await checkpointedWorld();
    const { client } = w.db;
    const victim = await client.auditEvent.findFirstOrThrow({ where: { action: "refund.executed" } });
    const stream = await client.auditEvent.findMany({
      where: { stream: victim.stream, streamSeq: { gte: victim.streamSeq } },
      orderBy: { streamSeq: "asc" },
    });
    let prevHash = stream[0]!.prevHash;
    for (const e of stream) {
      const inputs = e.seq === victim.seq ? { ...(e.inputs as object), amountCents: 1 } : e.inputs;
      const hash = auditLinkHash(prevHash, auditContentHash({ ...e, actorType: "system", inputs, at: e.at }));
      await asSuperuser(w, `UPDATE "AuditEvent" SET inputs = $1, "prevHash" = $2, hash = $3 WHERE seq = $4`, [
        JSON.stringify(inputs),
        prevHash,
        hash,
        e.seq.toString(),
      ]);
      prevHash = hash;
    }
    const { code, text } = await verify(w);
    expect(code).toBe(1);
    expect(text).toContain("the chain was re-hashed: the events covered by checkpoint 1 are not the ones it signed");
    expect(text).not.toContain("was altered"); // every hash recomputes: only the signature catches it
    expect(prevHash).not.toBe(GENESIS_HASH);
  });

  it("names a changed ledger amount", async () => {
    const w = await checkpointedWorld();
    await asSuperuser(w, `UPDATE "LedgerEntry" SET "amountCents" = "amountCents" + 10000`);
    const { code, text } = await verify(w);
    expect(code).toBe(1);
    expect(text).toMatch(/the ledger changed under checkpoint 1: signed 1 rows totalling 7900 cents, found 1 rows totalling 17900/);
    expect(text).toMatch(/ledger row \S+ says 17900 cents, its refund.executed event 7900/);
  });

  it("names a ledger row with no approval and no audit event", async () => {
    const w = await checkpointedWorld();
    const order = await freshOrder(w.db.client);
    await asSuperuser(
      w,
      `INSERT INTO "LedgerEntry" (id, "idempotencyKey", "orderId", "amountCents", currency, kind, "actorType") VALUES (gen_random_uuid(), 'refund:forged', $1, 5000, 'USD', 'refund', 'system')`,
      [order.orderId],
    );
    const { code, text } = await verify(w);
    expect(code).toBe(1);
    expect(text).toMatch(/ledger row \S+ \(5000 cents, refund:forged\) has no refund.executed event/);
    expect(text).toMatch(/ledger row \S+ \(refund:forged\) has no recorded approval/);
  });

  it("names a checkpoint removed from the database, the newest ones removed as a database behind its file, and one removed from the checkpoint file", async () => {
    const w = await checkpointedWorld();
    for (let i = 0; i < 2; i++) {
      await w.db.client.$transaction((tx) =>
        recordAuditEvent(tx, { actorType: "system", action: testAuditAction("later"), subjectType: "test" }),
      );
      await untilCheckpointCoversAll(w.db.client);
      await takeCheckpoint(w.db.client, { key: w.key, file: w.file, log: () => {} });
    }
    await asSuperuser(w, `DELETE FROM "AuditCheckpoint" WHERE position = 2`);
    expect(await verify(w)).toMatchObject({
      code: 1,
      text: expect.stringContaining("checkpoint 2 was removed from the database (the checkpoint file holds it)"),
    });
    // Without the newest checkpoint too, the database is behind its file from checkpoint 1 on: one
    // finding (as after a restore of an older backup), not a removal per checkpoint.
    await asSuperuser(w, `DELETE FROM "AuditCheckpoint" WHERE position = 3`);
    const behind = await verify(w);
    expect(behind.code).toBe(1);
    expect(behind.text).toMatch(
      /^Audit chain BROKEN: 1 problem\(s\)\.\n- the database is behind its checkpoint file \(rolled back\): it holds the signed checkpoints up to 1, the checkpoint file .* up to 3 .*which signed 2 audit event\(s\) and 0 ledger row\(s\) after checkpoint 1/,
    );

    const w2 = await checkpointedWorld();
    for (let i = 0; i < 2; i++) {
      await w2.db.client.$transaction((tx) =>
        recordAuditEvent(tx, { actorType: "system", action: testAuditAction("later"), subjectType: "test" }),
      );
      await untilCheckpointCoversAll(w2.db.client);
      await takeCheckpoint(w2.db.client, { key: w2.key, file: w2.file, log: () => {} });
    }
    const lines = readFileSync(w2.file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(3);
    writeFileSync(w2.file, [lines[0], lines[2]].join("\n") + "\n");
    expect(await verify(w2)).toMatchObject({ code: 1, text: expect.stringContaining("checkpoint 2 is missing from the checkpoint file") });
  });

  it("names a forged checkpoint: one signed with another key", async () => {
    const w = await checkpointedWorld();
    await w.db.client.$transaction((tx) =>
      recordAuditEvent(tx, { actorType: "system", action: testAuditAction("later"), subjectType: "test" }),
    );
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    await untilCheckpointCoversAll(w.db.client);
    await takeCheckpoint(w.db.client, {
      key: { privateKey, publicKey, publicKeyPem: "", keyId: keyIdOf(publicKey) },
      file: w.file,
      log: () => {},
    });
    expect(await verify(w)).toMatchObject({
      code: 1,
      text: expect.stringContaining("checkpoint 2 is not valid: its signature does not verify"),
    });
  });

  it("verifies incrementally for /audit: what follows the last verified checkpoint, tampering included", async () => {
    const w = await checkpointedWorld();
    expect((await verify(w)).code).toBe(0); // a full verification through checkpoint 1
    for (const n of [1, 2, 3])
      await w.db.client.$transaction((tx) =>
        recordAuditEvent(tx, { actorType: "system", action: testAuditAction(`step${n}`), subjectType: "test", subjectId: "x" }),
      );
    await untilCheckpointCoversAll(w.db.client);
    await takeCheckpoint(w.db.client, { key: w.key, file: w.file, log: () => {} });
    const clean = await verifyIncrementally(w.db.client, { publicKey: w.key.publicKey });
    expect(clean).toMatchObject({ fromPosition: 1, report: { ok: true, events: 3, covered: 3, position: 2 } });

    // Verified through checkpoint 2 now; a later event is removed from the middle of its stream.
    for (const n of [4, 5, 6])
      await w.db.client.$transaction((tx) =>
        recordAuditEvent(tx, { actorType: "system", action: testAuditAction(`step${n}`), subjectType: "test", subjectId: "x" }),
      );
    await untilCheckpointCoversAll(w.db.client);
    await takeCheckpoint(w.db.client, { key: w.key, file: w.file, log: () => {} });
    const middle = await w.db.client.auditEvent.findFirstOrThrow({ where: { action: "test.step5" } });
    await asSuperuser(w, `DELETE FROM "AuditEvent" WHERE seq = $1`, [middle.seq.toString()]);
    const { report, fromPosition } = await verifyIncrementally(w.db.client, { publicKey: w.key.publicKey });
    expect(fromPosition).toBe(2);
    expect(report.ok).toBe(false);
    const problems = report.problems.map(describeProblem);
    expect(problems).toContainEqual(expect.stringMatching(/^event #\d+ \(test\.step6\) does not link to the event before it in test:x/));
    expect(problems).toContainEqual("events deleted: checkpoint 3 signed 3 events in its window, 2 remain");
    // The same from the start: the full check agrees.
    expect((await verifyAuditChain(w.db.client, { publicKey: w.key.publicKey })).problems.map(describeProblem)).toEqual(
      expect.arrayContaining(problems),
    );
  });
});
