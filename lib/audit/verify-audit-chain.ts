// Verifies the audit chain against the signed checkpoints, and the ledger against the audit.
//
// - Every event's hash is recomputed from its contents and its stream predecessor's hash; every
//   stream's links and numbering are checked in the database.
// - The checkpoints must carry valid signatures and chain onto each other, and the file (kept
//   outside the database) and the database must hold the same ones.
// - Each checkpoint's window is recounted and re-digested: fewer events means events were deleted
//   (the tail truncated, when nothing follows), a different digest means the chain was re-hashed.
// - The ledger below the latest horizon must add up to what was signed; every ledger row must have
//   its execution event with the same key and amount and a recorded approval, and every execution
//   event its row.
// - Every decision must carry the app's signature and have the audit event that carries it; every
//   ledger row's approval must be made of decisions that verify (verify-decisions.ts).
// Events after the latest checkpoint are reported as an unverified tail: consistent, but unsigned.
import type { KeyObject } from "node:crypto";
import { driverRows, type Db } from "../db";
import { checkpointFromRow, checkpointSignatureValid, readCheckpointFile, windowDigester, type TCheckpoint } from "./checkpoint";
import { auditContentHash, auditLinkHash, GENESIS_HASH, legacyAuditHash, type ActorType } from "./record-audit-event";
import { decisionKeys, type TDecisionKeys } from "./decision-signature";
import { checkDecisions, checkLedgerApprovals, type TDecisionProblem } from "./verify-decisions";
import { findRollback, type TRollback } from "./rollback";

export type TAuditProblem =
  | { kind: "event_altered"; seq: bigint; action: string; at: Date }
  | { kind: "link_broken"; seq: bigint; stream: string; action: string }
  | { kind: "events_missing"; position: number; signed: number; found: number; tail: boolean }
  | { kind: "chain_rehashed"; position: number }
  | { kind: "checkpoint_removed"; position: number; from: "database" | "file" }
  | ({ kind: "rolled_back"; file: string } & TRollback)
  | { kind: "checkpoint_invalid"; position: number; why: string }
  | { kind: "ledger_total_changed"; position: number; signed: { rows: number; cents: string }; found: { rows: number; cents: string } }
  | { kind: "ledger_without_event"; ledgerEntryId: string; idempotencyKey: string; amountCents: number }
  | { kind: "ledger_amount_differs"; ledgerEntryId: string; idempotencyKey: string; amountCents: number; auditedCents: number | null }
  | { kind: "event_without_ledger"; seq: bigint; idempotencyKey: string }
  | { kind: "ledger_without_approval"; ledgerEntryId: string; idempotencyKey: string }
  | TDecisionProblem;

export interface TAuditReport {
  ok: boolean;
  /** Events checked (hash and links). */
  events: number;
  /** Of those, covered by a signed checkpoint. */
  covered: number;
  /** After the latest checkpoint: consistent but not yet signed. */
  unverifiedTail: number;
  checkpoints: number;
  /** The latest checkpoint checked, 0 when there is none. */
  position: number;
  /** Checkpoints in the database not yet in the file (a crash between the two writes). */
  unexported: number;
  /** No key to check signatures with: checkpoints are unchecked. */
  noKey: boolean;
  /** Approval decisions checked (signature and event): all of them in a full verification, none incrementally. */
  decisions: number;
  /** Rollbacks accepted at a restore: the checkpoint files set aside then, and what they hold that the database does not. */
  acceptedRollbacks: (TRollback & { file: string })[];
  problems: TAuditProblem[];
}

export interface TVerifyOptions {
  publicKey: KeyObject | null;
  /** The checkpoint file; checkpoints are read from it as the record kept outside the database. */
  file?: string;
  /** Checkpoint files a restore set aside when its rollback was accepted (db:restore --accept-rollback). */
  setAside?: readonly string[];
  /** Verify only what follows this checkpoint (already verified): what /audit does on each view. */
  fromPosition?: number;
  batchSize?: number;
  onProgress?: (checked: number) => void;
  /** Stop listing problems of one kind after this many (the report says how many more). */
  maxProblems?: number;
  /** The keys decisions verify against; by default this process's signing key and `publicKey`. */
  decisionKeys?: TDecisionKeys;
}

export type TEventRow = {
  seq: bigint;
  at: Date;
  actorType: string;
  actorId: string | null;
  action: string;
  subjectType: string;
  subjectId: string | null;
  ticketId: string | null;
  inputs: unknown;
  policyDecision: unknown;
  idempotencyKey: string | null;
  stream: string;
  txid: bigint;
  version: number;
  prevHash: string;
  hash: string;
};

export function eventFromText(r: Record<string, string | null>): TEventRow {
  return {
    seq: BigInt(r.seq!),
    at: new Date(r.at!),
    actorType: r.actorType!,
    actorId: r.actorId ?? null,
    action: r.action!,
    subjectType: r.subjectType!,
    subjectId: r.subjectId ?? null,
    ticketId: r.ticketId ?? null,
    inputs: r.inputs === null ? null : JSON.parse(r.inputs!),
    policyDecision: r.policyDecision === null ? null : JSON.parse(r.policyDecision!),
    idempotencyKey: r.idempotencyKey ?? null,
    stream: r.stream!,
    txid: BigInt(r.txid!),
    version: Number(r.version),
    prevHash: r.prevHash!,
    hash: r.hash!,
  };
}

export function eventHash(e: TEventRow): string {
  const fields = { ...e, actorType: e.actorType as ActorType };
  return e.version === 1 ? legacyAuditHash(e.prevHash, fields) : auditLinkHash(e.prevHash, auditContentHash(fields));
}

/** The checkpoints to trust: the file's, each signed and chained, compared with the database's. */
async function checkpointsToTrust(client: Db, options: TVerifyOptions, problems: TAuditProblem[]) {
  // From a verified checkpoint on, only it and what follows it are read (it anchors the chain).
  const from = Math.max(1, options.fromPosition ?? 0);
  const inDb = (await client.auditCheckpoint.findMany({ where: { position: { gte: from } }, orderBy: { position: "asc" } })).map(
    checkpointFromRow,
  );
  const fileAll = options.file ? readCheckpointFile(options.file).filter((c) => c.position >= from) : inDb;
  // A database behind its file is one finding, a rollback; from there on only the database's own
  // checkpoints (signed since, if any) are checked, as if not exported yet.
  const rollback = options.file ? findRollback(inDb, fileAll) : undefined;
  if (rollback) problems.push({ kind: "rolled_back", file: options.file!, ...rollback });
  const inFile = rollback ? fileAll.filter((c) => c.position <= rollback.keptUpTo) : fileAll;
  const dbBy = new Map(inDb.map((c) => [c.position, c]));
  const fileBy = new Map(inFile.map((c) => [c.position, c]));
  for (const c of inFile) if (!dbBy.has(c.position)) problems.push({ kind: "checkpoint_removed", position: c.position, from: "database" });
  const lastInFile = inFile.at(-1)?.position ?? 0;
  for (const c of inDb)
    if (c.position <= lastInFile && !fileBy.has(c.position))
      problems.push({ kind: "checkpoint_removed", position: c.position, from: "file" });
  for (const c of inFile) {
    const d = dbBy.get(c.position);
    if (d && d.hash !== c.hash)
      problems.push({ kind: "checkpoint_invalid", position: c.position, why: "the database's copy differs from the file's" });
  }
  // The file's copy of each checkpoint, else the database's (a crash between the two writes, or a
  // removal from the file, already reported).
  const unexported = inDb.filter((c) => c.position > lastInFile);
  const positions = [...new Set([...inFile, ...inDb].map((c) => c.position))].sort((a, b) => a - b);
  const trusted: TTrusted[] = [];
  const reported = new Set(problems.map((p) => (p.kind === "checkpoint_removed" ? p.position : -1)));
  let prev = from === 1 ? GENESIS_HASH : (fileBy.get(from) ?? dbBy.get(from))?.prevHash;
  let expected = from;
  for (const position of positions) {
    const c = (fileBy.get(position) ?? dbBy.get(position))!;
    const afterGap = position !== expected;
    for (; expected < position; expected++)
      if (!reported.has(expected))
        problems.push({ kind: "checkpoint_removed", position: expected, from: options.file ? "file" : "database" });
    expected = position + 1;
    if (!afterGap && c.prevHash !== prev)
      problems.push({ kind: "checkpoint_invalid", position, why: "it does not chain onto the checkpoint before it" });
    if (options.publicKey && !checkpointSignatureValid(c, options.publicKey))
      problems.push({ kind: "checkpoint_invalid", position, why: "its signature does not verify" });
    prev = c.hash;
    trusted.push({ ...c, afterGap });
  }
  const acceptedRollbacks = (options.setAside ?? []).flatMap((file) => {
    const r = findRollback(
      inDb,
      readCheckpointFile(file).filter((c) => c.position >= from),
    );
    return r ? [{ ...r, file }] : [];
  });
  return { trusted, unexported: unexported.length, acceptedRollbacks };
}

type TTrusted = TCheckpoint & { afterGap: boolean };
type TShortWindow = { position: number; signed: number; found: number };
type TBroken = { seq: bigint; stream: string; action: string };

export async function verifyAuditChain(client: Db, options: TVerifyOptions): Promise<TAuditReport> {
  const problems: TAuditProblem[] = [];
  const { trusted, unexported, acceptedRollbacks } = await checkpointsToTrust(client, options, problems);
  const { fromTxid, windows } = startingPoint(trusted, options.fromPosition ?? 0);

  // 1. Every event from the start point, in (txid, seq) order: its own hash, and the windows' digests.
  const { events, covered, shortWindows } = await checkEventHashes(client, { fromTxid, windows, options }, problems);
  // 2. Links and numbering within each stream touched since the start point, in the database.
  const broken = await findBrokenLinks(client, fromTxid);
  for (const b of broken) problems.push({ kind: "link_broken", ...b });
  reportMissingEvents(shortWindows, { tailEmpty: events - covered === 0, windows, linksHold: broken.length === 0 }, problems);

  // 3. The ledger: its total as signed, and each row against its execution event and approval.
  const latest = trusted.at(-1);
  if (latest) await checkLedgerTotal(client, latest, problems);
  await checkLedgerRows(client, fromTxid, problems);
  await checkExecutionsHaveRows(client, fromTxid, problems);
  // 4. The approvals: each decision signed and audited (in full only), each ledger row's approval verifying.
  const keys = options.decisionKeys ?? decisionKeys(options.publicKey ? [options.publicKey] : []);
  const decisions = options.fromPosition ? 0 : await checkDecisions(client, keys, problems);
  await checkLedgerApprovals(client, fromTxid, keys, problems);

  return {
    ok: problems.length === 0,
    events,
    covered,
    unverifiedTail: events - covered,
    checkpoints: trusted.length,
    position: latest?.position ?? 0,
    unexported,
    noKey: !options.publicKey && trusted.length > 0,
    decisions,
    acceptedRollbacks,
    problems,
  };
}

/** Where checking starts: the chain's beginning, or a verified checkpoint's horizon; and the windows after it. */
function startingPoint(trusted: TTrusted[], from: number): { fromTxid: bigint; windows: TTrusted[] } {
  const start = from > 0 ? trusted[0] : undefined;
  if (from > 0 && start?.position !== from) throw new Error(`checkpoint ${from} to verify from is not in the database`);
  return { fromTxid: start ? BigInt(start.horizon) : 0n, windows: from > 0 ? trusted.slice(1) : trusted };
}

/**
 * Every event's own hash, read in keyset batches (one in memory at a time), each counted into the
 * checkpoint window it falls in. A window closed with fewer events than signed is returned as short;
 * more, or another digest, is a re-hashed chain.
 */
async function checkEventHashes(
  client: Db,
  at: { fromTxid: bigint; windows: TTrusted[]; options: TVerifyOptions },
  problems: TAuditProblem[],
): Promise<{ events: number; covered: number; shortWindows: TShortWindow[] }> {
  const windows = windowTally(at.windows, problems);
  let events = 0;
  for await (const batch of eventBatches(client, at.fromTxid, at.options.batchSize ?? 5000)) {
    for (const e of batch) {
      windows.place(e);
      if (eventHash(e) !== e.hash) problems.push({ kind: "event_altered", seq: e.seq, action: e.action, at: e.at });
      events++;
    }
    at.options.onProgress?.(events);
  }
  windows.closeAll();
  return { events, covered: windows.covered(), shortWindows: windows.short };
}

/** The events after `fromTxid` in chain order (txid, seq), one keyset batch at a time. */
async function* eventBatches(client: Db, fromTxid: bigint, batchSize: number): AsyncGenerator<TEventRow[]> {
  let after: { txid: bigint; seq: bigint } = { txid: fromTxid, seq: -1n };
  for (;;) {
    // Straight from the driver: at a million events Prisma's per-row cost would dominate.
    const batch = (
      await driverRows(
        client,
        `SELECT "seq", to_char("at", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "at", "actorType", "actorId", "action", "subjectType", "subjectId", "ticketId",
                "inputs", "policyDecision", "idempotencyKey", "stream", "txid", "version", "prevHash", "hash"
         FROM "AuditEvent" WHERE ("txid", "seq") > ($1::bigint, $2::bigint) ORDER BY "txid", "seq" LIMIT ${batchSize}`,
        [after.txid.toString(), after.seq.toString()],
      )
    ).map(eventFromText);
    yield batch;
    if (batch.length < batchSize) return;
    after = { txid: batch.at(-1)!.txid, seq: batch.at(-1)!.seq };
  }
}

/** The checkpoint windows, filled in chain order: each event counted and digested into the one it falls in. */
function windowTally(windows: TTrusted[], problems: TAuditProblem[]) {
  const short: TShortWindow[] = [];
  let w = 0;
  let inWindow = 0;
  let covered = 0;
  let digest = windowDigester();
  const close = () => {
    const c = windows[w]!;
    // After a missing checkpoint the window's start is unknown: its events are counted, not compared.
    if (!c.afterGap) {
      if (inWindow < c.windowEvents) short.push({ position: c.position, signed: c.windowEvents, found: inWindow });
      else if (inWindow > c.windowEvents || digest.done() !== c.windowDigest)
        problems.push({ kind: "chain_rehashed", position: c.position });
    }
    w++;
    inWindow = 0;
    digest = windowDigester();
  };
  return {
    short,
    covered: () => covered,
    /** Closes the windows the event is past, then counts it into its own (none: the unsigned tail). */
    place(e: TEventRow): void {
      while (w < windows.length && e.txid >= BigInt(windows[w]!.horizon)) close();
      if (w >= windows.length) return;
      digest.add(e.hash);
      inWindow++;
      covered++;
    },
    closeAll(): void {
      while (w < windows.length) close();
    },
  };
}

/** Events whose link to their stream predecessor, or whose position in the stream, does not hold. */
function findBrokenLinks(client: Db, fromTxid: bigint): Promise<TBroken[]> {
  return fromTxid === 0n
    ? client.$queryRaw<TBroken[]>`
        SELECT "seq", "stream", "action" FROM (
          SELECT "seq", "stream", "action", "version", "prevHash", "streamSeq",
                 lag("hash") OVER w AS "expectedPrev", lag("streamSeq") OVER w AS "prevSeq"
          FROM "AuditEvent"
          WINDOW w AS (PARTITION BY "stream" ORDER BY "streamSeq")
        ) s
        WHERE "prevHash" <> coalesce("expectedPrev", ${GENESIS_HASH})
           OR ("version" = 2 AND "streamSeq" <> coalesce("prevSeq", 0) + 1)
        ORDER BY "seq" LIMIT 1000`
    : // From a verified point on: each newer event against its predecessor, found by the stream's index.
      client.$queryRaw<TBroken[]>`
        SELECT e."seq", e."stream", e."action" FROM "AuditEvent" e
        LEFT JOIN "AuditEvent" p ON p."stream" = e."stream" AND p."streamSeq" = e."streamSeq" - 1
        WHERE e."txid" >= ${fromTxid} AND e."version" = 2
          AND CASE WHEN e."streamSeq" = 1 THEN e."prevHash" <> ${GENESIS_HASH} ELSE p."hash" IS DISTINCT FROM e."prevHash" END
        ORDER BY e."seq" LIMIT 1000`;
}

/**
 * Missing events. The tail was truncated when nothing follows the first short window and no stream
 * has a gap: the newest events were cut off, rather than taken from the middle.
 */
function reportMissingEvents(
  shortWindows: TShortWindow[],
  chain: { tailEmpty: boolean; windows: TTrusted[]; linksHold: boolean },
  problems: TAuditProblem[],
): void {
  if (shortWindows.length === 0) return;
  const first = shortWindows[0]!;
  const nothingAfter =
    chain.tailEmpty &&
    shortWindows.length === chain.windows.filter((c) => c.position >= first.position).length &&
    shortWindows.every((s) => s === first || s.found === 0);
  const tail = nothingAfter && chain.linksHold;
  for (const s of shortWindows) problems.push({ kind: "events_missing", ...s, tail });
}

/** The ledger below the latest checkpoint's horizon: as many rows, and as many cents, as it signed. */
async function checkLedgerTotal(client: Db, latest: TTrusted, problems: TAuditProblem[]): Promise<void> {
  const [found] = await client.$queryRaw<{ rows: number; cents: bigint }[]>`
    SELECT count(*)::int AS rows, coalesce(sum("amountCents"), 0)::bigint AS cents FROM "LedgerEntry" WHERE "txid" < ${BigInt(latest.horizon)}`;
  if (found!.rows !== latest.ledgerRows || found!.cents.toString() !== latest.ledgerCents) {
    problems.push({
      kind: "ledger_total_changed",
      position: latest.position,
      signed: { rows: latest.ledgerRows, cents: latest.ledgerCents },
      found: { rows: found!.rows, cents: found!.cents.toString() },
    });
  }
}

/** Each ledger row since the start point: its execution event, with the same amount, and an approval. */
async function checkLedgerRows(client: Db, fromTxid: bigint, problems: TAuditProblem[]): Promise<void> {
  const ledger = await client.$queryRaw<
    { id: string; idempotencyKey: string; amountCents: number; eventSeq: bigint | null; auditedCents: number | null; decided: boolean }[]
  >`
    SELECT l."id", l."idempotencyKey", l."amountCents", e."seq" AS "eventSeq", (e."inputs"->>'amountCents')::int AS "auditedCents",
           EXISTS (SELECT 1 FROM "ApprovalDecision" d WHERE d."approvalRequestId" = l."approvalRequestId" AND d."decision" = 'approve') AS decided
    FROM "LedgerEntry" l
    LEFT JOIN LATERAL (SELECT "seq", "inputs" FROM "AuditEvent" a WHERE a."idempotencyKey" = l."idempotencyKey" AND a."action" = 'refund.executed' ORDER BY "seq" LIMIT 1) e ON true
    WHERE l."txid" >= ${fromTxid}
      AND (e."seq" IS NULL OR (e."inputs"->>'amountCents')::int IS DISTINCT FROM l."amountCents"
           OR NOT EXISTS (SELECT 1 FROM "ApprovalDecision" d WHERE d."approvalRequestId" = l."approvalRequestId" AND d."decision" = 'approve'))
    LIMIT 1000`;
  for (const l of ledger) {
    if (l.eventSeq === null)
      problems.push({ kind: "ledger_without_event", ledgerEntryId: l.id, idempotencyKey: l.idempotencyKey, amountCents: l.amountCents });
    else if (l.auditedCents !== l.amountCents)
      problems.push({
        kind: "ledger_amount_differs",
        ledgerEntryId: l.id,
        idempotencyKey: l.idempotencyKey,
        amountCents: l.amountCents,
        auditedCents: l.auditedCents,
      });
    if (!l.decided) problems.push({ kind: "ledger_without_approval", ledgerEntryId: l.id, idempotencyKey: l.idempotencyKey });
  }
}

/** Each live execution event since the start point has its ledger row. */
async function checkExecutionsHaveRows(client: Db, fromTxid: bigint, problems: TAuditProblem[]): Promise<void> {
  const orphans = await client.$queryRaw<{ seq: bigint; idempotencyKey: string }[]>`
    SELECT a."seq", a."idempotencyKey" FROM "AuditEvent" a
    WHERE a."action" = 'refund.executed' AND a."txid" >= ${fromTxid} AND a."inputs"->>'mode' = 'live'
      AND NOT EXISTS (SELECT 1 FROM "LedgerEntry" l WHERE l."idempotencyKey" = a."idempotencyKey")
    ORDER BY a."seq" LIMIT 1000`;
  for (const o of orphans) problems.push({ kind: "event_without_ledger", seq: o.seq, idempotencyKey: o.idempotencyKey });
}
