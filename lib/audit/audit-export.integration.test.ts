// An exported audit trail, verified offline against a public key obtained separately: a fresh export
// verifies; an edit, a removal or a cut names the event or the stream; an export re-signed with
// another key is refused; the command answers 0 and 1.
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { spawnTs } from "../../testing/spawn-ts";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { runAgent } from "../agent/run-agent";
import { decideApproval } from "../approvals/decide-approval";
import { refusalCode } from "../../testing/refusals";
import { ERROR_CODES } from "../contracts/app-error";
import { exportAuditTrail, exportLineHash, type TExportEvent, type TExportLine, type TExportSeal } from "./audit-export";
import { auditContentHash, recordAuditEvent } from "./record-audit-event";
import { keyIdOf, type TSigningKey } from "./checkpoint";
import { eventFromText, eventHash } from "./verify-audit-chain";
import { describeExportProblem, verifyAuditExport, type TExportProblem } from "./verify-audit-export";

const testDb = useTestDb(seedDemo);

function newKey(): TSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return { privateKey, publicKey, publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(), keyId: keyIdOf(publicKey) };
}

const key = newKey();
let file = "";
let admin: { id: string; role: "ADMIN" };

async function exported(options: { from?: Date; to?: Date } = {}): Promise<string> {
  let text = "";
  for await (const chunk of exportAuditTrail({ actor: admin, key, batchSize: 7, ...options })) text += chunk;
  return text;
}

const lines = (text: string) => text.trimEnd().split("\n");
const parsed = (text: string) => lines(text).map((l) => JSON.parse(l) as { type: string } & Partial<TExportEvent>);
const joined = (rows: readonly unknown[]) => `${rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n")}\n`;
const kinds = (problems: TExportProblem[]) => problems.map((p) => p.kind);

beforeAll(async () => {
  const { client } = testDb();
  admin = { id: (await user(client, "ADMIN")).id, role: "ADMIN" };
  // A ticket with a run, a decision and so a stream of several events.
  const ticket = await tabletTicket(client, await freshOrder(client));
  await runAgent({ ticketId: ticket });
  const approval = await approvalFor(client, ticket);
  await decideApproval({
    approvalId: approval.id,
    digest: approval.digest,
    decision: "reject",
    note: "Not this time.",
    actor: await user(client, "REVIEWER"),
  });
  file = await exported();
});

describe("an audit export", () => {
  it("verifies as exported, with every event in chain order, and the export is audited", async () => {
    const report = verifyAuditExport(file, key.publicKey);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    const { client } = testDb();
    // The export's own event is recorded before the events are read, so it is in the file.
    const events = parsed(file).filter((l) => l.type === "event");
    expect(report.events).toBe(events.length);
    expect(events.length).toBe(await client.auditEvent.count());
    expect(events.at(-1)).toMatchObject({ action: "audit.exported", actorId: admin.id });
    expect(parsed(file)[0]).toMatchObject({ type: "header", from: null, to: null, keyId: key.keyId });
    expect(parsed(file).at(-1)).toMatchObject({ type: "seal", events: events.length });
  });

  it("names an event edited in place", () => {
    const rows = parsed(file);
    const i = rows.findIndex((r) => r.action === "approval.rejected");
    rows[i] = { ...rows[i]!, inputs: JSON.stringify({ note: "Approved after all." }) };
    const report = verifyAuditExport(joined(rows), key.publicKey);
    expect(report.problems).toEqual([{ kind: "event_altered", line: i + 1, seq: rows[i]!.seq, action: "approval.rejected" }]);
  });

  it("names the position removed from the middle of a stream, and the count", () => {
    const rows = parsed(file);
    const stream = rows.find((r) => r.action === "approval.rejected")!.stream!;
    const ofStream = rows.map((r, i) => ({ r, i })).filter(({ r }) => r.stream === stream);
    const removed = ofStream[1]!;
    const report = verifyAuditExport(joined(rows.filter((_, i) => i !== removed.i)), key.publicKey);
    expect(report.problems).toContainEqual({
      kind: "event_missing",
      stream,
      afterSeq: ofStream[0]!.r.seq,
      beforeSeq: ofStream[2]!.r.seq,
      positions: `#${removed.r.streamSeq}`,
    });
    expect(kinds(report.problems)).toContain("events_missing");
    expect(report.ok).toBe(false);
  });

  it("names the end of the file removed, seal kept: the stream that lost its last event and the last event", () => {
    const rows = parsed(file);
    const lastEvent = rows.at(-2)!;
    const report = verifyAuditExport(joined([...rows.slice(0, -2), rows.at(-1)]), key.publicKey);
    expect(report.problems).toContainEqual(expect.objectContaining({ kind: "stream_differs", stream: lastEvent.stream }));
    expect(report.problems).toContainEqual({ kind: "last_differs", sealed: lastEvent.seq, found: rows.at(-3)!.seq });
    expect(report.problems.map(describeExportProblem).join("\n")).toContain(
      `the seal says seq ${lastEvent.seq}: the end of the file was removed`,
    );
  });

  it("names a file cut short: the line cut and the last whole event", () => {
    const text = lines(file);
    const cut = `${text.slice(0, -3).join("\n")}\n${text.at(-3)!.slice(0, 40)}`;
    const report = verifyAuditExport(cut, key.publicKey);
    expect(report.problems).toEqual([
      { kind: "unreadable", line: text.length - 2, why: "not a JSON object (the file was cut or edited here)" },
      { kind: "seal_missing", lastSeq: (JSON.parse(text.at(-4)!) as TExportEvent).seq },
    ]);
  });

  it("refuses an export re-signed with another key, whether or not anything else changed", () => {
    const other = newKey();
    const rows = parsed(file);
    const { hash: _hash, signature: _signature, ...body } = rows.at(-1) as unknown as TExportSeal;
    const hash = exportLineHash(body);
    const resigned = { ...body, hash, signature: sign(null, Buffer.from(hash), other.privateKey).toString("base64") };
    const report = verifyAuditExport(joined([...rows.slice(0, -1), resigned]), key.publicKey);
    expect(report.problems).toEqual([
      { kind: "seal_invalid", why: "its signature does not verify with this public key (signed with another key, or altered)" },
    ]);
    // The same export checked with the other key verifies: the key must come from elsewhere.
    expect(verifyAuditExport(joined([...rows.slice(0, -1), resigned]), other.publicKey).ok).toBe(true);
  });

  it("names a stream re-hashed after an edit, though every event's own hash holds", () => {
    const rows = parsed(file);
    // The forger edits the last event and recomputes its hash as the app would, but cannot re-sign.
    const i = rows.length - 2;
    const forged = { ...rows[i]!, inputs: JSON.stringify({ from: null, to: null, keyId: "forged" }) } as TExportEvent;
    forged.hash = eventHash(eventFromText({ ...forged, streamSeq: String(forged.streamSeq), version: String(forged.version) }));
    const report = verifyAuditExport(joined([...rows.slice(0, i), forged, rows.at(-1)]), key.publicKey);
    expect(report.problems).toEqual([
      { kind: "stream_differs", stream: forged.stream, why: "its last hash is not the sealed one: its events were re-hashed" },
      { kind: "chain_rehashed" },
    ]);
  });

  it("exports a time range: only its events, still verifiable, its bounds sealed", async () => {
    const all = parsed(file).filter((r) => r.type === "event");
    const from = new Date(all[Math.floor(all.length / 2)]!.at!);
    const ranged = await exported({ from });
    const report = verifyAuditExport(ranged, key.publicKey);
    expect(report.problems).toEqual([]);
    expect(report.from).toBe(from.toISOString());
    const events = parsed(ranged).filter((r) => r.type === "event");
    expect(events.every((e) => Date.parse(e.at!) >= from.getTime())).toBe(true);
    // Changing the header's range is caught by the seal.
    const rows = parsed(ranged);
    rows[0] = { ...rows[0]!, from: null } as (typeof rows)[0];
    expect(verifyAuditExport(joined(rows), key.publicKey).problems).toEqual([
      { kind: "seal_invalid", why: "the header is not the one sealed (its range or author changed)" },
    ]);
  });

  it("checks each stream in its own order, which chain order need not follow (concurrent appends)", () => {
    // Stream A's second event committed in a transaction with a smaller id than its first: chain
    // order (txid, seq) lists it first. A valid export, sealed as the exporter seals it.
    const made = (seq: number, txid: number, streamSeq: number, prevHash: string): TExportEvent => {
      const e: TExportEvent = {
        type: "event",
        seq: String(seq),
        at: "2026-11-23T10:00:00.000Z",
        actorType: "system",
        actorId: "test",
        action: "ticket.created",
        subjectType: "ticket",
        subjectId: "a",
        ticketId: null,
        inputs: null,
        policyDecision: null,
        idempotencyKey: null,
        stream: "ticket:a",
        streamSeq,
        txid: String(txid),
        version: 2,
        prevHash,
        hash: "",
      };
      e.hash = eventHash(eventFromText({ ...e, streamSeq: String(e.streamSeq), version: String(e.version) }));
      return e;
    };
    const first = made(1, 20, 1, "0".repeat(64));
    const second = made(2, 10, 2, first.hash);
    const header = {
      type: "header",
      format: "countersign-audit-export/1",
      from: null,
      to: null,
      exportedAt: "2026-11-23T10:01:00.000Z",
      exportedBy: "test",
      keyId: key.keyId,
    };
    const digest = createHash("sha256").update(second.hash).update(first.hash).digest("hex");
    const body = {
      type: "seal",
      format: "countersign-audit-export/1",
      headerHash: exportLineHash(header),
      events: 2,
      firstSeq: "2",
      lastSeq: "1",
      digest,
      streams: { "ticket:a": { first: 1, last: 2, events: 2, lastHash: second.hash } },
      exportedAt: header.exportedAt,
      keyId: key.keyId,
    };
    const hash = exportLineHash(body);
    const seal = { ...body, hash, signature: sign(null, Buffer.from(hash), key.privateKey).toString("base64") };
    expect(verifyAuditExport(joined([header, second, first, seal]), key.publicKey).problems).toEqual([]);
    // The same file with the stream's link broken is named.
    const broken = { ...second, prevHash: "f".repeat(64) };
    broken.hash = eventHash(eventFromText({ ...broken, streamSeq: "2", version: "2" }));
    expect(kinds(verifyAuditExport(joined([header, broken, first, seal]), key.publicKey).problems)).toContain("link_broken");
  });

  it("npm run audit:verify -- --file F --pubkey K answers 0 for the export and 1, naming the event, for an edited one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "countersign-export-"));
    writeFileSync(join(dir, "key.pub.pem"), key.publicKeyPem);
    writeFileSync(join(dir, "export.jsonl"), file);
    const rows = parsed(file);
    const i = rows.findIndex((r) => r.action === "approval.rejected");
    rows[i] = { ...rows[i]!, actorId: admin.id };
    writeFileSync(join(dir, "edited.jsonl"), joined(rows));
    const run = (name: string) =>
      new Promise<{ code: number | null; out: string }>((done) => {
        const child = spawnTs("scripts/audit-verify.ts", ["--file", join(dir, name), "--pubkey", join(dir, "key.pub.pem")]);
        let out = "";
        child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
        child.on("exit", (code) => done({ code, out }));
      });
    const good = await run("export.jsonl");
    expect(good).toMatchObject({ code: 0, out: expect.stringMatching(/^Audit export verifies: \d+ events/) });
    const bad = await run("edited.jsonl");
    expect(bad.code).toBe(1);
    expect(bad.out).toContain(`event seq ${rows[i]!.seq} (approval.rejected, line ${i + 1}) was altered`);
  }, 60_000);
});

describe("the export's redaction of addresses and session ids", () => {
  const ADDRESS = "203.0.113.77";
  const SESSION = "6f1c2a9e-1b7d-4c55-9a0e-3d2b8c4f1e90";
  let lead: { id: string; role: "LEAD" };
  let staff: string;

  beforeAll(async () => {
    const { client } = testDb();
    lead = { id: (await user(client, "LEAD")).id, role: "LEAD" };
    staff = (await user(client, "REVIEWER")).id;
    // As sign-in, sign-out and the lock record them (lib/auth/credentials.ts, end-session.ts).
    await client.$transaction(async (tx) => {
      const by = { actorType: "user", actorId: staff, subjectType: "user", subjectId: staff } as const;
      await recordAuditEvent(tx, { ...by, action: "auth.signed_in", inputs: { address: ADDRESS, session: SESSION } });
      await recordAuditEvent(tx, { ...by, action: "auth.signed_out", inputs: { session: SESSION } });
      await recordAuditEvent(tx, {
        actorType: "system",
        action: "auth.sign_in_locked",
        subjectType: "user",
        subjectId: staff,
        inputs: { scopes: ["pair"], address: ADDRESS, until: null },
      });
    });
  });

  async function exportAs(actor: { id: string; role: "LEAD" | "ADMIN" }, security?: boolean) {
    let text = "";
    for await (const chunk of exportAuditTrail({ actor, key, batchSize: 7, security })) text += chunk;
    return text;
  }

  it("gives a lead no address and no session id, and the export still verifies", async () => {
    const text = await exportAs(lead);
    expect(text).not.toContain(ADDRESS);
    expect(text).not.toContain(SESSION);
    expect(parsed(text)[0]).toMatchObject({ type: "header", redaction: "security_fields", exportedBy: lead.id });
    const signedIn = parsed(text).find((l) => l.action === "auth.signed_in") as TExportLine;
    expect(JSON.parse(signedIn.inputs!)).toEqual({ address: "[redacted]", session: "[redacted]" });
    expect(signedIn.redacted).toEqual({
      fields: ["inputs.address", "inputs.session"],
      contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(
      parsed(text)
        .filter((l) => (l as TExportLine).redacted)
        .map((l) => l.action),
    ).toEqual(expect.arrayContaining(["auth.signed_in", "auth.signed_out", "auth.sign_in_locked"]));
    const report = verifyAuditExport(text, key.publicKey);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it("refuses a lead the security export (403), before anything is recorded; gives it an admin, verifiable", async () => {
    const { client } = testDb();
    const exports = await client.auditEvent.count({ where: { action: "audit.exported" } });
    const refused = exportAs(lead, true);
    expect(await refusalCode(refused)).toBe("forbidden");
    expect(ERROR_CODES.forbidden.http).toBe(403);
    expect(await client.auditEvent.count({ where: { action: "audit.exported" } })).toBe(exports);

    const text = await exportAs(admin, true);
    expect(text).toContain(ADDRESS);
    expect(text).toContain(SESSION);
    expect(parsed(text)[0]).toMatchObject({ redaction: "none" });
    expect(parsed(text).some((l) => (l as TExportLine).redacted)).toBe(false);
    expect(verifyAuditExport(text, key.publicKey).problems).toEqual([]);
    const exported = await client.auditEvent.findFirstOrThrow({ where: { action: "audit.exported" }, orderBy: { seq: "desc" } });
    expect(exported).toMatchObject({ actorId: admin.id, inputs: expect.objectContaining({ security: true }) });

    // The redacted line's content hash is the full event's: whoever holds the full event can check it.
    const redacted = parsed(await exportAs(lead)).find((l) => l.action === "auth.signed_in") as TExportLine;
    const full = parsed(text).find((l) => l.seq === redacted.seq) as TExportEvent;
    const row = eventFromText({ ...full, streamSeq: String(full.streamSeq), version: String(full.version) });
    expect(redacted.redacted!.contentHash).toBe(auditContentHash({ ...row, actorType: row.actorType as "user" }));
  });

  it("names a redacted event that was edited, given another content hash, unmarked, or added", async () => {
    const text = await exportAs(lead);
    const rows = lines(text);
    const at = rows.findIndex((l) => (JSON.parse(l) as TExportLine).action === "auth.signed_in");
    const event = JSON.parse(rows[at]!) as TExportLine;
    const withLine = (line: object) => joined(rows.map((r, i) => (i === at ? JSON.stringify(line) : r)));
    const problemsOf = (line: object) => kinds(verifyAuditExport(withLine(line), key.publicKey).problems);

    // Its actor changed: the chain still links (the content hash is untouched), the seal does not.
    expect(problemsOf({ ...event, actorId: admin.id })).toEqual(["redactions_differ"]);
    // Another content hash: the link to its chain hash breaks.
    expect(problemsOf({ ...event, redacted: { ...event.redacted!, contentHash: "0".repeat(64) } })).toContain("event_altered");
    // The mark removed, the placeholders left: its own hash no longer matches, and the seal counts one fewer.
    const { redacted: _gone, ...unmarked } = event;
    expect(problemsOf(unmarked)).toEqual(expect.arrayContaining(["event_altered", "redactions_differ"]));
    // A made-up address put back in place of the placeholder: the same.
    expect(problemsOf({ ...unmarked, inputs: JSON.stringify({ address: "198.51.100.1", session: SESSION }) })).toEqual(
      expect.arrayContaining(["event_altered", "redactions_differ"]),
    );
    // An unredacted event marked redacted (its real content hash computed): the seal counts one more.
    const other = JSON.parse(rows.find((l) => (JSON.parse(l) as TExportLine).action === "run.started")!) as TExportEvent;
    const otherRow = eventFromText({ ...other, streamSeq: String(other.streamSeq), version: String(other.version) });
    const marked = {
      ...other,
      inputs: "{}",
      redacted: { fields: ["inputs.mode"], contentHash: auditContentHash({ ...otherRow, actorType: otherRow.actorType as "user" }) },
    };
    const swapped = joined(rows.map((r) => (r === JSON.stringify(other) ? JSON.stringify(marked) : r)));
    expect(kinds(verifyAuditExport(swapped, key.publicKey).problems)).toEqual(["redactions_differ"]);
  });
});
