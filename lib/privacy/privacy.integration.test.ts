// A customer's erasure on a real database (PGlite, and PostgreSQL when DATABASE_URL is set): after it,
// neither a dump of the whole database nor a new audit export holds their name, address or words,
// while the audit chain, the checkpoints, the offline export verification, the decisions' signatures
// and the ledger's total hold as before. A refund in flight or a legal hold refuses it.
import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../generated/prisma/client";
import { asOwner, useTestDb } from "../../testing/db";
import { untilCheckpointCoversAll } from "../../testing/audit";
import { drainQueue } from "../../testing/queue";
import { refusalCode } from "../../testing/refusals";
import { approvalFor, ticketFrom, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { decideApproval } from "../approvals/decide-approval";
import { runAgent } from "../agent/run-agent";
import { addInternalNote } from "../conversations/add-note";
import { exportAuditTrail } from "../audit/audit-export";
import { keyIdOf, takeCheckpoint, type TSigningKey } from "../audit/checkpoint";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { verifyAuditExport } from "../audit/verify-audit-export";
import { commitment } from "../contracts/commitment";
import { eraseCustomer, erasedEmail } from "./erase-customer";
import { setLegalHold, type THoldSubject } from "./legal-hold";
import type { Role } from "../contracts/roles";
import { applyRetention } from "./apply-retention";
import { storeErasureRequest } from "./erase-over-api";
import { downloadSubjectExport, requestSubjectExport } from "./export-subject";
import { receiveErasureIntake, type TIntakeConfig } from "../intake/receive-intake";
import { webhookHeaders } from "../../testing/intake";
import { enqueue } from "../jobs/queue";
import { RETENTION_JOB } from "../jobs/definitions";
import {
  DEFAULT_RETENTION_SETTINGS,
  loadRetentionSettings,
  MIN_RETENTION_DAYS,
  RETENTION_TICKETS_KEY,
  RETENTION_TRACES_KEY,
  ZRetentionSettings,
} from "../policy/retention-settings";

const enqueueRetention = (client: PrismaClient) => client.$transaction((tx) => enqueue(tx, RETENTION_JOB, {}));

const testDb = useTestDb();

function newKey(): TSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return { privateKey, publicKey, publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(), keyId: keyIdOf(publicKey) };
}

/** A customer of their own, with words nobody else uses, and a delivered tablet order. */
async function customer(client: PrismaClient, tag: string) {
  const person = { id: `CUS-${tag}`, name: `Wilhelmina${tag} Quastberg-${tag}`, email: `w.quastberg.${tag.toLowerCase()}@example.org` };
  await client.customer.create({ data: person });
  const order = await client.order.create({
    data: {
      id: `ORD-${tag}`,
      customerId: person.id,
      item: "Aurora 10-inch tablet",
      category: "electronics",
      amountCents: 7_900,
      placedAt: new Date(Date.now() - 15 * 86_400_000),
      deliveredAt: new Date(Date.now() - 12 * 86_400_000),
    },
  });
  const words = {
    subject: `Tablet for Quastberg-${tag} arrived with a cracked screen`,
    body: `Hi, this is ${person.name}, 17 Larkspur Mews. My Aurora tablet (order ${order.id}) arrived with a cracked screen. Can I get a refund?`,
  };
  return { ...person, orderId: order.id, words, world: { email: person.email, orderId: order.id } };
}

/** Every row of every table of the app's and the job queue's schemas, as text. */
async function tableDump(client: PrismaClient): Promise<string> {
  const tables = await client.$queryRawUnsafe<{ name: string }[]>(
    `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
      WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await client.$queryRawUnsafe<{ row: string }[]>(`SELECT t::text AS row FROM ${name} t`);
    parts.push(`-- ${name}\n${rows.map((r) => r.row).join("\n")}`);
  }
  return parts.join("\n");
}

/** The whole database: pg_dump's own on PostgreSQL, every table's rows as text on PGlite. */
async function wholeDump(): Promise<string> {
  const db = testDb();
  const rows = await asOwner(db, tableDump);
  if (!db.ownerUrl) return rows;
  return rows + execFileSync("pg_dump", ["--data-only", db.ownerUrl], { maxBuffer: 512 * 1024 * 1024 }).toString("utf8");
}

async function exported(key: TSigningKey, admin: { id: string; role: "ADMIN" }): Promise<string> {
  let text = "";
  for await (const chunk of exportAuditTrail({ actor: admin, key })) text += chunk;
  return text;
}

async function ledgerTotal(client: PrismaClient) {
  const rows = await client.ledgerEntry.aggregate({ _sum: { amountCents: true }, _count: true });
  return { rows: rows._count, cents: rows._sum.amountCents ?? 0 };
}

/** The name a reply greets the customer by (the rule drafter's "Hi <first name>,"). */
const firstName = (c: { name: string }) => c.name.split(" ")[0]!;

/** Each personal value the dumps must not hold, with the fragments a search index would keep of it,
 * and the first name alone: what a released reply in the outbox holds of her. */
function personalValues(c: Awaited<ReturnType<typeof customer>>): string[] {
  return [c.name, firstName(c), c.email, c.words.subject, c.words.body, "Larkspur", "quastberg"];
}

const findIn = (text: string, values: string[]) => values.filter((v) => text.toLowerCase().includes(v.toLowerCase()));

const key = newKey();
let admin: { id: string; role: "ADMIN" };

beforeAll(async () => {
  await seedDemo(testDb().client);
  admin = { id: (await user(testDb().client, "ADMIN")).id, role: "ADMIN" };
});

describe("erasing a customer", () => {
  it("leaves none of their name, address or words in the database or a new export, and the evidence verifies", async () => {
    const db = testDb();
    const c = await customer(db.client, "E1");
    const reviewer = await db.client.user.findFirstOrThrow({ where: { role: "REVIEWER" } });
    // A refund approved with a note naming her, executed by the worker, its reply released to the outbox.
    const ticketId = await ticketFrom(db.client, c.world, c.words);
    await addInternalNote({ ticketId, body: `Called ${c.name} at 17 Larkspur Mews.`, actor: reviewer });
    const request = await approvalFor(db.client, ticketId);
    expect(request.kind).toBe("refund");
    await decideApproval({
      approvalId: request.id,
      decision: "approve",
      note: `Quastberg-E1 sent a photo.`,
      digest: request.digest,
      actor: { id: reviewer.id, role: reviewer.role },
    });
    await drainQueue(db);
    expect(await db.client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(1);
    const [released] = await db.client.outboxMessage.findMany({ where: { ticketId } });
    // The reply that went out greets her by name: the outbox is searched for it like any table.
    expect(released!.body).toContain(`Hi ${firstName(c)},`);
    expect(findIn(await wholeDump(), personalValues(c)).length).toBeGreaterThan(0);

    // The chain never held her words: the export made before erasure has only commitments to them,
    // which her salt links to the values while she has one.
    const exportBefore = await exported(key, admin);
    expect(findIn(exportBefore, personalValues(c))).toEqual([]);
    const { salt } = await db.client.customer.findUniqueOrThrow({ where: { id: c.id } });
    const approved = await db.client.auditEvent.findFirstOrThrow({ where: { action: "approval.approved", subjectId: request.id } });
    expect(approved.inputs).toMatchObject({ note: commitment(salt!, "Quastberg-E1 sent a photo.") });

    const file = join(mkdtempSync(join(tmpdir(), "erasure-")), "checkpoints.jsonl");
    await untilCheckpointCoversAll(db.client);
    expect(await takeCheckpoint(db.client, { key, file, log: () => {} })).toHaveProperty("signed");
    const before = await ledgerTotal(db.client);
    const decisions = await db.client.approvalDecision.findMany({ where: { approvalRequestId: request.id } });

    const erased = await eraseCustomer({ customerId: c.id, actor: { type: "user", ...admin } });
    expect(erased).toMatchObject({ erasedNow: true, tickets: 1, approvals: 1 });

    expect(findIn(await wholeDump(), personalValues(c))).toEqual([]);
    expect(findIn((await db.client.outboxMessage.findUniqueOrThrow({ where: { id: released!.id } })).body, personalValues(c))).toEqual([]);
    const text = await exported(key, admin);
    expect(findIn(text, personalValues(c))).toEqual([]);
    expect(verifyAuditExport(text, key.publicKey)).toMatchObject({ ok: true, problems: [] });
    const chain = await verifyAuditChain(db.client, { publicKey: key.publicKey, file });
    expect(chain.problems).toEqual([]);
    expect(chain.ok).toBe(true);
    expect(chain.decisions).toBeGreaterThan(0);
    expect(await ledgerTotal(db.client)).toEqual(before);
    // The decisions keep everything but their free text: digest, decider, signature, time.
    const after = await db.client.approvalDecision.findMany({ where: { approvalRequestId: request.id } });
    expect(after).toEqual(decisions.map((d) => ({ ...d, note: null, originalReply: null, editedReply: null })));
    expect(await db.client.customer.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({
      name: "",
      email: erasedEmail(c.id),
      salt: null,
    });
    const event = await db.client.auditEvent.findFirstOrThrow({ where: { action: "customer.erased", subjectId: c.id } });
    expect(event).toMatchObject({ actorType: "user", actorId: admin.id, subjectType: "customer", inputs: { tickets: 1 } });

    // The decisions stay append-only: new text, or any other column, is refused even now.
    const [decision] = after;
    for (const sql of [
      `UPDATE "ApprovalDecision" SET "note" = 'rewritten' WHERE id = '${decision!.id}'`,
      `UPDATE "ApprovalDecision" SET "digest" = 'x', "note" = NULL WHERE id = '${decision!.id}'`,
      `DELETE FROM "ApprovalDecision" WHERE id = '${decision!.id}'`,
    ])
      await expect(db.client.$executeRawUnsafe(sql), sql).rejects.toThrow(/append_only|permission denied/);

    // Asked again, it answers and changes nothing.
    expect(await eraseCustomer({ customerId: c.id, actor: { type: "api", id: "helpdesk" } })).toMatchObject({ erasedNow: false });
    expect(await db.client.auditEvent.count({ where: { action: "customer.erased", subjectId: c.id } })).toBe(1);
  });

  it("is refused while a refund waits for a decision, and once it has ended goes through", async () => {
    const db = testDb();
    const c = await customer(db.client, "E2");
    const request = await approvalFor(db.client, await ticketFrom(db.client, c.world, c.words));
    const erase = () => eraseCustomer({ customerId: c.id, actor: { type: "user", ...admin } });
    expect(await refusalCode(erase())).toBe("erasure_refund_in_flight");
    // Approved but not yet executed is still in flight.
    const reviewer = await user(db.client, "REVIEWER");
    await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer });
    expect(await refusalCode(erase())).toBe("erasure_refund_in_flight");
    expect(await db.client.customer.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ name: c.name, erasedAt: null });
    await drainQueue(db);
    expect(await erase()).toMatchObject({ erasedNow: true });
  });

  it("is refused under a legal hold on the customer or on one of their tickets, and to anyone but an admin", async () => {
    const db = testDb();
    const c = await customer(db.client, "E3");
    const ticketId = await ticketFrom(
      db.client,
      { email: c.email, orderId: c.orderId },
      { subject: "Question", body: "Where is my parcel?" },
    );
    const erase = (actor: Parameters<typeof eraseCustomer>[0]["actor"]) => eraseCustomer({ customerId: c.id, actor });
    // Holds are placed and lifted by an admin only, audited once per change.
    const hold = (subject: THoldSubject, on: boolean, actor: { id: string; role: Role } = admin) =>
      setLegalHold({ subject, hold: on, actor });
    for (const role of ["REVIEWER", "SPECIALIST", "LEAD"] as const)
      expect(await refusalCode(hold({ customerId: c.id }, true, await user(db.client, role)))).toBe("forbidden");
    expect(await refusalCode(hold({ customerId: "CUS-NOBODY" }, true))).toBe("not_found");
    expect(await hold({ ticketId }, true)).toEqual({ changed: true });
    expect(await refusalCode(erase({ type: "user", ...admin }))).toBe("erasure_legal_hold");
    expect(await hold({ ticketId }, false)).toEqual({ changed: true });
    expect(await hold({ customerId: c.id }, true)).toEqual({ changed: true });
    expect(await hold({ customerId: c.id }, true)).toEqual({ changed: false });
    expect(await refusalCode(erase({ type: "api", id: "helpdesk" }))).toBe("erasure_legal_hold");
    expect(await hold({ customerId: c.id }, false)).toEqual({ changed: true });
    const holds = await db.client.auditEvent.findMany({
      where: { action: { startsWith: "legal_hold." }, subjectId: { in: [c.id, ticketId] } },
      orderBy: { seq: "asc" },
    });
    expect(holds.map((e) => [e.action, e.subjectType, e.actorId])).toEqual([
      ["legal_hold.placed", "ticket", admin.id],
      ["legal_hold.lifted", "ticket", admin.id],
      ["legal_hold.placed", "customer", admin.id],
      ["legal_hold.lifted", "customer", admin.id],
    ]);
    for (const role of ["REVIEWER", "SPECIALIST", "LEAD"] as const)
      expect(await refusalCode(erase({ type: "user", ...(await user(db.client, role)) }))).toBe("forbidden");
    expect(await refusalCode(eraseCustomer({ customerId: "CUS-NOBODY", actor: { type: "user", ...admin } }))).toBe("not_found");
    expect(await db.client.auditEvent.count({ where: { action: "customer.erased", subjectId: c.id } })).toBe(0);
    expect(await erase({ type: "user", ...admin })).toMatchObject({ erasedNow: true, tickets: 1 });
  });
});

describe("the retention job", () => {
  it("erases only the resolved tickets past their period and not under a legal hold, and audits what it erased", async () => {
    const db = testDb();
    const days = (n: number) => new Date(Date.now() - n * 86_400_000);
    const made: Record<string, { ticketId: string; c: Awaited<ReturnType<typeof customer>> }> = {};
    for (const tag of ["R1", "R2", "R3", "R4", "R5"]) {
      const c = await customer(db.client, tag);
      made[tag] = { c, ticketId: await ticketFrom(db.client, c.world, c.words) };
    }
    const set = (tag: string, data: { status?: "resolved" | "open"; updatedAt: Date; legalHold?: boolean }) =>
      db.client.ticket.update({ where: { id: made[tag]!.ticketId }, data: { status: "resolved", ...data } });
    await set("R1", { updatedAt: days(731) }); // expired: erased
    await set("R2", { updatedAt: days(700) }); // within the default 730 days
    await set("R3", { updatedAt: days(900), legalHold: true }); // the ticket is held
    await set("R4", { updatedAt: days(900) });
    await db.client.customer.update({ where: { id: made.R4!.c.id }, data: { legalHold: true } }); // the customer is held
    await set("R5", { status: "open", updatedAt: days(900) }); // not resolved

    await enqueueRetention(db.client);
    await drainQueue(db);

    const tickets = await db.client.ticket.findMany({ where: { id: { in: Object.values(made).map((m) => m.ticketId) } } });
    const erased = tickets.filter((t) => t.erasedAt !== null).map((t) => t.id);
    expect(erased).toEqual([made.R1!.ticketId]);
    expect(tickets.find((t) => t.id === made.R1!.ticketId)).toMatchObject({ subject: "", body: "", customerEmail: "" });
    expect(tickets.find((t) => t.id === made.R3!.ticketId)).toMatchObject({ subject: made.R3!.c.words.subject });
    const events = await db.client.auditEvent.findMany({ where: { action: "retention.applied", subjectId: "tickets" } });
    expect(events.map((e) => e.inputs)).toEqual([expect.objectContaining({ kind: "tickets", count: 1, ticketIds: [made.R1!.ticketId] })]);
    expect((await verifyAuditChain(db.client, { publicKey: null })).problems).toEqual([]);

    // Again: nothing more has expired, so nothing is erased or audited.
    expect(await applyRetention({ client: db.client })).toEqual({ tickets: 0, traces: 0 });
    expect(await db.client.auditEvent.count({ where: { action: "retention.applied" } })).toBe(1);
  });

  it("clears the step traces of runs past their period, a batch at a time, never a held ticket's, and audits each batch", async () => {
    const db = testDb();
    const days = (n: number) => new Date(Date.now() - n * 86_400_000);
    const runs: Record<string, string> = {};
    for (const [tag, startedDaysAgo] of [
      ["T1", 400],
      ["T2", 380],
      ["T3", 300],
      ["T4", 500],
    ] as const) {
      const c = await customer(db.client, tag);
      const ticketId = await ticketFrom(db.client, c.world, c.words);
      await runAgent({ ticketId, client: db.client });
      const run = await db.client.agentRun.findFirstOrThrow({ where: { ticketId } });
      await db.client.agentRun.update({ where: { id: run.id }, data: { startedAt: days(startedDaysAgo) } });
      if (tag === "T4") await db.client.ticket.update({ where: { id: ticketId }, data: { legalHold: true } }); // held: kept
      runs[tag] = run.id;
    }
    const kept = async (runId: string) => {
      const steps = await db.client.traceEvent.findMany({ where: { runId } });
      expect(steps.length).toBeGreaterThan(0);
      return steps.some((e) => JSON.stringify(e.args) !== "{}" || e.result !== null);
    };
    for (const tag of ["T1", "T2", "T3", "T4"]) expect(await kept(runs[tag]!), tag).toBe(true);
    const before = await db.client.auditEvent.count({ where: { action: "retention.applied", subjectId: "traces" } });

    // The default period for traces is 365 days: T1 and T2 are past it, T3 is not, T4 is held.
    expect(await applyRetention({ client: db.client, batchSize: 1 })).toEqual({ tickets: 0, traces: 2 });
    expect({ T1: await kept(runs.T1!), T2: await kept(runs.T2!), T3: await kept(runs.T3!), T4: await kept(runs.T4!) }).toEqual({
      T1: false,
      T2: false,
      T3: true,
      T4: true,
    });
    const events = await db.client.auditEvent.findMany({
      where: { action: "retention.applied", subjectId: "traces" },
      orderBy: { seq: "asc" },
    });
    expect(events.slice(before).map((e) => e.inputs)).toEqual([
      expect.objectContaining({ kind: "traces", count: 1, runIds: [runs.T1] }),
      expect.objectContaining({ kind: "traces", count: 1, runIds: [runs.T2] }),
    ]);
    // The runs' record stays: status, reason and steps, only their arguments and results are gone.
    expect(await db.client.agentRun.findUniqueOrThrow({ where: { id: runs.T1! } })).toMatchObject({
      status: expect.any(String),
      reason: expect.any(String),
    });
    expect(await applyRetention({ client: db.client, batchSize: 1 })).toEqual({ tickets: 0, traces: 0 });
    expect((await verifyAuditChain(db.client, { publicKey: null })).problems).toEqual([]);
  });

  it("keeps the periods at six months or more, and defaults to two years for tickets and one for traces", async () => {
    const db = testDb();
    expect(await loadRetentionSettings(db.client)).toEqual(DEFAULT_RETENTION_SETTINGS);
    expect(DEFAULT_RETENTION_SETTINGS).toEqual({ [RETENTION_TICKETS_KEY]: 730, [RETENTION_TRACES_KEY]: 365 });
    expect(ZRetentionSettings.safeParse({ ...DEFAULT_RETENTION_SETTINGS, [RETENTION_TRACES_KEY]: MIN_RETENTION_DAYS - 1 }).success).toBe(
      false,
    );
  });
});

describe("the helpdesk's signed erasure request", () => {
  const SECRET = "erasure-test-secret-0123456789abcdef0123";
  const CONFIG: TIntakeConfig = { secrets: [SECRET], toleranceSeconds: 300, legacyUntil: null, limiter: null };
  const deliver = (body: unknown, secret = SECRET) => {
    const raw = JSON.stringify(body);
    const headers = new Headers(webhookHeaders(raw, secret));
    return receiveErasureIntake({ rawBody: Buffer.from(raw), headers, address: "192.0.2.30" }, storeErasureRequest, CONFIG);
  };

  it("erases once, answers a replay without erasing again, and refuses a bad signature, bad fields, a hold and a stranger", async () => {
    const db = testDb();
    const c = await customer(db.client, "H1");
    await ticketFrom(db.client, c.world, { subject: "Parcel", body: "Where is my parcel?" });
    const erasures = () => db.client.auditEvent.count({ where: { action: "customer.erased", subjectId: c.id } });

    expect(await deliver({ customerId: c.id }, "another-secret-0123456789abcdef0123456")).toMatchObject({
      status: 401,
      body: { error: "invalid_signature" },
    });
    expect(await deliver({ customerId: c.id, name: "x" })).toMatchObject({ status: 400, body: { error: "invalid_fields" } });
    expect(await deliver({ customerId: "CUS-NOBODY" })).toMatchObject({ status: 404, body: { error: "not_found" } });
    await db.client.customer.update({ where: { id: c.id }, data: { legalHold: true } });
    expect(await deliver({ customerId: c.id })).toMatchObject({ status: 409, body: { error: "erasure_legal_hold" } });
    await db.client.customer.update({ where: { id: c.id }, data: { legalHold: false } });
    expect(await erasures()).toBe(0);

    expect(await deliver({ customerId: c.id })).toMatchObject({ status: 200, body: { status: "erased", customerId: c.id, tickets: 1 } });
    expect(await deliver({ customerId: c.id })).toMatchObject({ status: 200, body: { status: "already_erased" } });
    expect(await erasures()).toBe(1);
    expect(await db.client.auditEvent.findFirstOrThrow({ where: { action: "customer.erased", subjectId: c.id } })).toMatchObject({
      actorType: "api",
      actorId: "helpdesk",
    });
  });
});

describe("a customer's data export", () => {
  it("is gathered by a job, downloaded once by an admin, audited, and discarded by an erasure", async () => {
    const db = testDb();
    const c = await customer(db.client, "X1");
    await ticketFrom(db.client, c.world, c.words);
    const lead = await user(db.client, "LEAD");
    expect(await refusalCode(requestSubjectExport({ customerId: c.id, actor: lead }))).toBe("forbidden");
    const { exportId } = await requestSubjectExport({ customerId: c.id, actor: admin });
    // Not gathered yet.
    expect(await refusalCode(downloadSubjectExport({ exportId, actor: admin }))).toBe("export_unavailable");
    await drainQueue(db);

    expect(await refusalCode(downloadSubjectExport({ exportId, actor: lead }))).toBe("forbidden");
    const data = (await downloadSubjectExport({ exportId, actor: admin })) as Record<string, unknown>;
    expect(data).toMatchObject({
      customer: { id: c.id, name: c.name, email: c.email },
      orders: [expect.objectContaining({ id: c.orderId, amountCents: 7_900 })],
      tickets: [
        expect.objectContaining({
          subject: c.words.subject,
          body: c.words.body,
          messages: [expect.objectContaining({ body: c.words.body })],
        }),
      ],
    });
    // Once: the second download is refused, and the row keeps nothing of the data.
    expect(await refusalCode(downloadSubjectExport({ exportId, actor: admin }))).toBe("export_unavailable");
    expect(await db.client.subjectExport.findUniqueOrThrow({ where: { id: exportId } })).toMatchObject({
      status: "downloaded",
      data: null,
    });
    const events = await db.client.auditEvent.findMany({
      where: { subjectId: c.id, action: { startsWith: "customer.export" } },
      orderBy: { seq: "asc" },
    });
    expect(events.map((e) => [e.action, e.actorId])).toEqual([
      ["customer.export_requested", admin.id],
      ["customer.export_downloaded", admin.id],
    ]);

    // A ready export not yet downloaded goes with the erasure.
    const second = await requestSubjectExport({ customerId: c.id, actor: admin });
    await drainQueue(db);
    await eraseCustomer({ customerId: c.id, actor: { type: "user", ...admin } });
    expect(await db.client.subjectExport.findUniqueOrThrow({ where: { id: second.exportId } })).toMatchObject({
      status: "discarded",
      data: null,
    });
    expect(await refusalCode(downloadSubjectExport({ exportId: second.exportId, actor: admin }))).toBe("export_unavailable");
  });
});
