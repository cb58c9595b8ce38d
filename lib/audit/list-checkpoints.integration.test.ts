// GET /api/audit/checkpoints' reading: the latest checkpoints, or forward from a position, each one
// exactly as the checkpoint file holds it, with the key that verifies them.
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { testAuditAction } from "../../testing/audit";
import { checkpointSignatureValid, keyIdOf, readCheckpointFile, takeCheckpoint, type TSigningKey } from "./checkpoint";
import { CHECKPOINT_PAGE_MAX, listCheckpoints, ZCheckpointQuery } from "./list-checkpoints";
import { recordAuditEvent } from "./record-audit-event";

const testDb = useTestDb();
const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const key: TSigningKey = {
  privateKey,
  publicKey,
  publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  keyId: keyIdOf(publicKey),
};
const file = join(mkdtempSync(join(tmpdir(), "checkpoints-")), "checkpoints.jsonl");

/**
 * Waits until no transaction older than the newest event is still running anywhere on the server
 * (transaction ids are server-wide), so that a checkpoint taken now covers the event just written.
 */
async function untilNothingRunsBefore() {
  for (let i = 0; i < 100; i++) {
    const [row] = await testDb().client.$queryRaw<{ covered: boolean }[]>`
      SELECT (pg_snapshot_xmin(pg_current_snapshot()))::text::bigint > coalesce((SELECT max(txid) FROM "AuditEvent"), 0) AS covered`;
    if (row!.covered) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("a transaction on the server stayed open for 5 s");
}

beforeAll(async () => {
  const { client } = testDb();
  for (let i = 0; i < 5; i++) {
    await client.$transaction((tx) =>
      recordAuditEvent(tx, { actorType: "system", action: testAuditAction("paging"), subjectType: "test", inputs: { i } }),
    );
    await untilNothingRunsBefore();
    expect(await takeCheckpoint(client, { key, file, log: () => {} })).toHaveProperty("signed.position", i + 1);
  }
});

const positions = (page: { checkpoints: { position: number }[] }) => page.checkpoints.map((c) => c.position);

describe("listing the signed checkpoints", () => {
  it("gives each checkpoint exactly as the checkpoint file holds it, with the key that verifies it", async () => {
    const page = await listCheckpoints({ key });
    expect(page.publicKey).toBe(key.publicKeyPem);
    expect(page.keyId).toBe(key.keyId);
    expect(page.checkpoints).toEqual(readCheckpointFile(file));
    expect(JSON.stringify(page.checkpoints)).toBe(JSON.stringify(readCheckpointFile(file)));
    for (const c of page.checkpoints) expect(checkpointSignatureValid(c, publicKey)).toBe(true);
  });

  it("without `after`, the latest ones, oldest first", async () => {
    expect(positions(await listCheckpoints({ key }))).toEqual([1, 2, 3, 4, 5]);
    const latest = await listCheckpoints({ key, limit: 2 });
    expect(positions(latest)).toEqual([4, 5]);
    expect(latest.next).toBeNull();
  });

  it("pages forward from a position: `next` is the following page's `after` while pages are full", async () => {
    const first = await listCheckpoints({ key, after: 0, limit: 2 });
    expect(positions(first)).toEqual([1, 2]);
    expect(first.next).toBe(2);
    const second = await listCheckpoints({ key, after: first.next!, limit: 2 });
    expect(positions(second)).toEqual([3, 4]);
    const third = await listCheckpoints({ key, after: second.next!, limit: 2 });
    expect(positions(third)).toEqual([5]);
    expect(third.next).toBeNull();
    const beyond = await listCheckpoints({ key, after: 5 });
    expect(beyond).toMatchObject({ checkpoints: [], next: null });
  });

  it("publishes no key when the instance has none", async () => {
    expect(await listCheckpoints({ key: null, limit: 1 })).toMatchObject({ publicKey: null, keyId: null, checkpoints: [{ position: 5 }] });
  });
});

describe("the query", () => {
  it.each([
    [{}, {}],
    [{ after: "0" }, { after: 0 }],
    [
      { after: "17", limit: "5" },
      { after: 17, limit: 5 },
    ],
    [{ limit: String(CHECKPOINT_PAGE_MAX) }, { limit: CHECKPOINT_PAGE_MAX }],
  ])("%o is read as %o", (query, expected) => expect(ZCheckpointQuery.parse(query)).toEqual(expected));

  it.each([
    [{ after: "abc" }, "after"],
    [{ after: "-1" }, "after"],
    [{ after: "1.5" }, "after"],
    [{ after: "" }, "after"],
    [{ limit: "0" }, "limit"],
    [{ limit: String(CHECKPOINT_PAGE_MAX + 1) }, "limit"],
    [{ limit: "ten" }, "limit"],
    [{ afer: "3" }, ""],
  ])("%o is refused, naming %s", (query, field) => {
    const parsed = ZCheckpointQuery.safeParse(query);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path.join(".")).toBe(field);
  });
});
