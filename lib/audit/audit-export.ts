// The audit trail as a file anyone can verify without the app: JSON Lines, a header, every event of the
// range in chain order with the fields its hash covers, and a seal signed at export time with the
// audit signing key (the checkpoints' Ed25519 key, kept outside the database). The seal binds the
// header, the number of events, the first and last, a digest over every event's hash in order, and
// each stream's part of the file (how many events, its first and last position, its last hash), so
// an offline check (verify-audit-export.ts) can name what was edited, removed or cut off.
//
//   {"type":"header","format":"countersign-audit-export/1","from":…,"to":…,"exportedAt":…,"exportedBy":…,"keyId":…}
//   {"type":"event","seq":"…","at":"…",…,"stream":"ticket:…","streamSeq":3,"prevHash":"…","hash":"…"}
//   …
//   {"type":"seal",…,"hash":"…","signature":"…"}
//
// The export is itself audited (`audit.exported`, with its range), before the events are read.
//
// Redaction. Leads take exports; the staff's sign-in addresses and session ids are not theirs to
// carry away. So by default an event whose inputs hold such a field (SECURITY_INPUT_FIELDS: `address`,
// `lastAddress`, `session`) is exported with each such value replaced by "[redacted]", the fields
// named under `redacted`, and its content hash (what its chain hash is computed from, over the full
// event): the verifier checks the chain link from that content hash instead of recomputing it, and
// the seal binds every redacted line as written (`redactions`), so a redacted line cannot be edited
// either. Whoever holds the full event can check it against the content hash. An admin may ask for
// the security export (`security: true`), which redacts nothing; the header says which one a file is.
import { sign } from "node:crypto";
import { canonicalJson, sha256Hex } from "../contracts/canonical";
import { db as defaultDb, driverRows, type Db } from "../db";
import type { TTextRow } from "../db/driver";
import { signingKey, windowDigester, type TSigningKey } from "./checkpoint";
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import { auditContentHash, recordAuditEvent } from "./record-audit-event";
import { eventFromText } from "./verify-audit-chain";

export const AUDIT_EXPORT_FORMAT = "countersign-audit-export/1";

export interface TExportHeader {
  type: "header";
  format: typeof AUDIT_EXPORT_FORMAT;
  /** The range's bounds (events at or after `from`, before `to`), ISO; null when open. */
  from: string | null;
  to: string | null;
  exportedAt: string;
  exportedBy: string;
  keyId: string;
  /** "security_fields": addresses and session ids redacted (the default); "none": the security export. */
  redaction: "security_fields" | "none";
}

/** The inputs' fields that hold a person's network address or session id. */
export const SECURITY_INPUT_FIELDS = ["address", "lastAddress", "session"] as const;
export const REDACTED = "[redacted]";

/** An event as exported: every column its hash covers, as the database returns it as text. */
export interface TExportEvent {
  type: "event";
  seq: string;
  at: string;
  actorType: string;
  actorId: string | null;
  action: string;
  subjectType: string;
  subjectId: string | null;
  ticketId: string | null;
  inputs: string | null;
  policyDecision: string | null;
  idempotencyKey: string | null;
  stream: string;
  streamSeq: number;
  txid: string;
  version: number;
  prevHash: string;
  hash: string;
}

/** An event line as written: with `redacted` when fields were, naming them (`inputs.<name>`) and
 * giving the full event's content hash. */
export type TExportLine = TExportEvent & { redacted?: { fields: string[]; contentHash: string | null } };

/** A stream's part of the file: its first and last position, how many, and the last hash. */
export interface TStreamPart {
  first: number;
  last: number;
  events: number;
  lastHash: string;
}

export interface TExportSealBody {
  type: "seal";
  format: typeof AUDIT_EXPORT_FORMAT;
  headerHash: string;
  events: number;
  firstSeq: string | null;
  lastSeq: string | null;
  /** sha256 over every event's hash, in file order. */
  digest: string;
  streams: Record<string, TStreamPart>;
  exportedAt: string;
  keyId: string;
  /** The redacted events: how many, and sha256 over each one's line hash, in file order. */
  redactions?: { events: number; digest: string };
}

export interface TExportSeal extends TExportSealBody {
  /** sha256 of the canonical body; the signature is Ed25519 over it, base64. */
  hash: string;
  signature: string;
}

export const exportLineHash = (line: object): string => sha256Hex(canonicalJson(line));

const EVENT_COLUMNS = `"seq"::text, to_char("at", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "at", "actorType"::text, "actorId"::text, "action", "subjectType", "subjectId",
  "ticketId"::text, "inputs"::text, "policyDecision"::text, "idempotencyKey", "stream", "streamSeq"::text, "txid"::text, "version"::text, "prevHash", "hash"`;

type TRange = { from: string | null; to: string | null };

/**
 * The export's lines, each ending in a newline, read in keyset batches (one batch in memory at a
 * time, whatever the range). `from`/`to` bound the events' time (from inclusive, to exclusive).
 */
export async function* exportAuditTrail(input: {
  actor: { id: string; role: Role };
  /** The security export: addresses and session ids included. Admins only. */
  security?: boolean;
  from?: Date;
  to?: Date;
  client?: Db;
  key?: TSigningKey;
  batchSize?: number;
  now?: Date;
}): AsyncGenerator<string> {
  const security = input.security === true;
  if (security && !mayUse(input.actor.role, "admin"))
    throw new AppError("forbidden", `A ${input.actor.role.toLowerCase()} may not take the security export (addresses and session ids).`);
  const client = input.client ?? defaultDb();
  const key = input.key ?? signingKey();
  const exportedAt = (input.now ?? new Date()).toISOString();
  const range: TRange = { from: input.from?.toISOString() ?? null, to: input.to?.toISOString() ?? null };
  await recordExport(client, input.actor, { ...range, security }, key);

  const header: TExportHeader = {
    type: "header",
    format: AUDIT_EXPORT_FORMAT,
    ...range,
    exportedAt,
    exportedBy: input.actor.id,
    keyId: key.keyId,
    redaction: security ? "none" : "security_fields",
  };
  yield `${JSON.stringify(header)}\n`;

  const tally = sealTally();
  for await (const rows of eventPages(client, range, input.batchSize ?? 2000)) {
    let chunk = "";
    for (const row of rows) {
      const event = security ? exportEvent(row) : redactEvent(exportEvent(row));
      tally.add(event);
      chunk += `${JSON.stringify(event)}\n`;
    }
    if (chunk) yield chunk;
  }
  yield `${JSON.stringify(tally.seal({ headerHash: exportLineHash(header), exportedAt, key }))}\n`;
}

/** The export is audited before any event is read: who took which range, signed with which key. */
async function recordExport(client: Db, actor: { id: string }, range: TRange & { security: boolean }, key: TSigningKey): Promise<void> {
  await client.$transaction((tx) =>
    recordAuditEvent(tx, {
      actorType: "user",
      actorId: actor.id,
      action: "audit.exported",
      subjectType: "audit",
      subjectId: null,
      inputs: { ...range, keyId: key.keyId },
    }),
  );
}

/** The range's events in chain order (txid, seq), one keyset page of `batchSize` rows at a time. */
async function* eventPages(client: Db, range: TRange, batchSize: number): AsyncGenerator<TTextRow[]> {
  let after = { txid: "0", seq: "-1" };
  for (;;) {
    const rows = await driverRows(
      client,
      `SELECT ${EVENT_COLUMNS} FROM "AuditEvent"
       WHERE ("txid", "seq") > ($1::bigint, $2::bigint) AND ($3::timestamp IS NULL OR "at" >= $3::timestamp) AND ($4::timestamp IS NULL OR "at" < $4::timestamp)
       ORDER BY "txid", "seq" LIMIT ${batchSize}`,
      [after.txid, after.seq, range.from, range.to],
    );
    yield rows;
    if (rows.length < batchSize) return;
    after = { txid: rows.at(-1)!.txid!, seq: rows.at(-1)!.seq! };
  }
}

/** An event's row, as the database gave it in text, as its line. */
function exportEvent(r: TTextRow): TExportEvent {
  return {
    type: "event",
    seq: r.seq!,
    at: r.at!,
    actorType: r.actorType!,
    actorId: r.actorId ?? null,
    action: r.action!,
    subjectType: r.subjectType!,
    subjectId: r.subjectId ?? null,
    ticketId: r.ticketId ?? null,
    inputs: r.inputs ?? null,
    policyDecision: r.policyDecision ?? null,
    idempotencyKey: r.idempotencyKey ?? null,
    stream: r.stream!,
    streamSeq: Number(r.streamSeq),
    txid: r.txid!,
    version: Number(r.version),
    prevHash: r.prevHash!,
    hash: r.hash!,
  };
}

/**
 * An event with its security fields' values replaced, its content hash kept (version 2; a legacy
 * version-1 event's hash covers its fields directly, so only the seal vouches for its redacted line).
 */
export function redactEvent(event: TExportEvent): TExportLine {
  if (event.inputs === null) return event;
  const inputs = JSON.parse(event.inputs) as unknown;
  if (inputs === null || typeof inputs !== "object" || Array.isArray(inputs)) return event;
  const record = inputs as Record<string, unknown>;
  const fields = SECURITY_INPUT_FIELDS.filter((f) => f in record && record[f] !== null);
  if (fields.length === 0) return event;
  const full = eventFromText({ ...event, streamSeq: String(event.streamSeq), version: String(event.version) });
  const contentHash = event.version >= 2 ? auditContentHash({ ...full, actorType: full.actorType as never }) : null;
  const redactedInputs = { ...record, ...Object.fromEntries(fields.map((f) => [f, REDACTED])) };
  return { ...event, inputs: JSON.stringify(redactedInputs), redacted: { fields: fields.map((f) => `inputs.${f}`), contentHash } };
}

/** What the seal binds, counted as the events go by: none is kept. */
function sealTally() {
  const digest = windowDigester();
  const streams: Record<string, TStreamPart> = {};
  let events = 0;
  let firstSeq: string | null = null;
  let lastSeq: string | null = null;
  const redacted = windowDigester();
  let redactedEvents = 0;
  return {
    add(event: TExportLine): void {
      digest.add(event.hash);
      if (event.redacted) {
        redacted.add(exportLineHash(event));
        redactedEvents++;
      }
      events++;
      firstSeq ??= event.seq;
      lastSeq = event.seq;
      // Chain order (txid, seq) is not always a stream's own order: concurrent transactions append to
      // a stream in the order they take its head, not the order of their ids.
      const part = streams[event.stream];
      if (!part) streams[event.stream] = { first: event.streamSeq, last: event.streamSeq, events: 1, lastHash: event.hash };
      else {
        part.events++;
        part.first = Math.min(part.first, event.streamSeq);
        if (event.streamSeq > part.last) Object.assign(part, { last: event.streamSeq, lastHash: event.hash });
      }
    },
    /** The seal over everything added, signed with the export's key. */
    seal(at: { headerHash: string; exportedAt: string; key: TSigningKey }): TExportSeal {
      const body: TExportSealBody = {
        type: "seal",
        format: AUDIT_EXPORT_FORMAT,
        headerHash: at.headerHash,
        events,
        firstSeq,
        lastSeq,
        digest: digest.done(),
        streams,
        exportedAt: at.exportedAt,
        keyId: at.key.keyId,
        redactions: { events: redactedEvents, digest: redacted.done() },
      };
      const hash = exportLineHash(body);
      return { ...body, hash, signature: sign(null, Buffer.from(hash), at.key.privateKey).toString("base64") };
    },
  };
}
