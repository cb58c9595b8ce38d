// Checks an audit export (audit-export.ts) offline, against a public key obtained separately: no
// database, no app. It names what is wrong, event by event where it can:
//
// - an event whose hash does not match its contents (edited in place);
// - a stream whose positions skip (an event removed from the middle), or whose link to the event
//   before it does not hold;
// - a stream whose last event, count or last hash is not what the seal says (its end removed, or the
//   stream re-hashed after an edit);
// - fewer or more events than sealed, another last event (the file cut short), another digest;
// - a seal that does not verify with the key (re-signed with another key, or altered), or none;
// - a redacted event (audit-export.ts, "Redaction") whose content hash does not give its chain hash,
//   or whose line is not the one sealed (the seal's `redactions` digest binds each such line).
import { verify, type KeyObject } from "node:crypto";
import {
  AUDIT_EXPORT_FORMAT,
  exportLineHash,
  type TExportLine,
  type TExportHeader,
  type TExportSeal,
  type TStreamPart,
} from "./audit-export";
import { windowDigester } from "./checkpoint";
import { eventFromText, eventHash } from "./verify-audit-chain";
import { auditLinkHash } from "./record-audit-event";

export type TExportProblem =
  | { kind: "unreadable"; line: number; why: string }
  | { kind: "header_missing" }
  | { kind: "seal_missing"; lastSeq: string | null }
  | { kind: "seal_invalid"; why: string }
  | { kind: "event_altered"; line: number; seq: string; action: string }
  | { kind: "event_missing"; stream: string; afterSeq: string | null; beforeSeq: string; positions: string }
  | { kind: "link_broken"; line: number; seq: string; stream: string }
  | { kind: "stream_differs"; stream: string; why: string }
  | { kind: "events_missing"; sealed: number; found: number }
  | { kind: "events_added"; sealed: number; found: number }
  | { kind: "last_differs"; sealed: string | null; found: string | null }
  | { kind: "chain_rehashed" }
  | { kind: "redactions_differ"; why: string };

export interface TExportReport {
  ok: boolean;
  events: number;
  from: string | null;
  to: string | null;
  exportedAt: string | null;
  keyId: string | null;
  problems: TExportProblem[];
}

function textRecord(e: TExportLine): Record<string, string | null> {
  const { redacted: _redacted, ...event } = e;
  return { ...event, streamSeq: String(e.streamSeq), version: String(e.version) };
}

function sealValid(seal: TExportSeal, publicKey: KeyObject): string | null {
  const { hash, signature, ...body } = seal;
  if (exportLineHash(body) !== hash) return "its contents do not match its hash (the seal was altered)";
  try {
    return verify(null, Buffer.from(hash), publicKey, Buffer.from(signature, "base64"))
      ? null
      : "its signature does not verify with this public key (signed with another key, or altered)";
  } catch {
    return "its signature cannot be read";
  }
}

/** An event as the checks need it: where it is, its place in its stream, and its links. */
type TFoundEvent = { line: number; seq: string; streamSeq: number; prevHash: string; hash: string; version: number };
type TFoundPart = TStreamPart & { lastSeq: string };

/** What the file holds, read line by line. */
interface TExportRead {
  header: TExportHeader | null;
  seal: TExportSeal | null;
  /** Each stream's events as found; checked in the stream's own order (streamSeq) once all are read. */
  streams: Map<string, TFoundEvent[]>;
  events: number;
  lastSeq: string | null;
  digest: ReturnType<typeof windowDigester>;
  /** The redacted lines: how many, and their line hashes' digest (what the seal's `redactions` binds). */
  redacted: { events: number; digest: ReturnType<typeof windowDigester> };
}

/** Verifies the export's text (its lines) with the public key. */
export function verifyAuditExport(text: string, publicKey: KeyObject): TExportReport {
  const problems: TExportProblem[] = [];
  const read = readExportLines(text, problems);
  const { header, seal, lastSeq } = read;
  const parts = checkStreamOrder(read.streams, problems);

  if (!header) problems.push({ kind: "header_missing" });
  if (!seal) {
    problems.push({ kind: "seal_missing", lastSeq });
    return reportOf(read, false, header?.keyId ?? null, problems);
  }
  checkSeal(seal, header, publicKey, problems);
  checkSealedStreams(seal, parts, problems);
  checkSealedCounts(seal, read, problems);
  return reportOf(read, problems.length === 0, seal.keyId, problems);
}

function reportOf(read: TExportRead, ok: boolean, keyId: string | null, problems: TExportProblem[]): TExportReport {
  const { header, events } = read;
  return {
    ok,
    events,
    from: header?.from ?? null,
    to: header?.to ?? null,
    exportedAt: header?.exportedAt ?? null,
    keyId,
    problems,
  };
}

/** Every line read as the header, an event (its own hash checked), or the seal; anything else named. */
function readExportLines(text: string, problems: TExportProblem[]): TExportRead {
  const read: TExportRead = {
    header: null,
    seal: null,
    streams: new Map(),
    events: 0,
    lastSeq: null,
    digest: windowDigester(),
    redacted: { events: 0, digest: windowDigester() },
  };
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    let value: { type?: unknown };
    try {
      value = JSON.parse(raw) as { type?: unknown };
    } catch {
      problems.push({ kind: "unreadable", line, why: "not a JSON object (the file was cut or edited here)" });
      continue;
    }
    if (read.seal) {
      problems.push({ kind: "unreadable", line, why: "a line after the seal" });
      continue;
    }
    if (value.type === "header" && line === 1) {
      read.header = value as TExportHeader;
      if (read.header.format !== AUDIT_EXPORT_FORMAT)
        problems.push({ kind: "unreadable", line, why: `an unknown format ${String(read.header.format)}` });
    } else if (value.type === "seal") {
      read.seal = value as TExportSeal;
    } else if (value.type === "event") {
      readEvent(read, value as TExportLine, line, problems);
    } else {
      problems.push({ kind: "unreadable", line, why: "neither the header, an event nor the seal" });
    }
  }
  return read;
}

/** An event line: counted, its hash checked against its contents, and filed under its stream. */
function readEvent(read: TExportRead, e: TExportLine, line: number, problems: TExportProblem[]): void {
  read.events++;
  read.lastSeq = e.seq;
  read.digest.add(e.hash);
  let computed: string | null = null;
  try {
    computed = e.redacted ? redactedHash(read, e) : eventHash(eventFromText(textRecord(e)));
  } catch {
    // A field of the wrong shape: the event cannot be what was hashed.
  }
  if (computed !== e.hash) problems.push({ kind: "event_altered", line, seq: e.seq, action: String(e.action) });
  const stream = read.streams.get(e.stream);
  const entry = { line, seq: e.seq, streamSeq: e.streamSeq, prevHash: e.prevHash, hash: e.hash, version: e.version };
  if (stream) stream.push(entry);
  else read.streams.set(e.stream, [entry]);
}

/**
 * A redacted event's chain hash, from the content hash it carries (its own contents no longer give
 * it); its line, as written, counts toward the redactions the seal binds. A legacy (version 1) event
 * has no content hash: the seal alone vouches for its line.
 */
function redactedHash(read: TExportRead, e: TExportLine): string {
  read.redacted.events++;
  read.redacted.digest.add(exportLineHash(e));
  const contentHash = e.redacted!.contentHash;
  if (e.version === 1 && contentHash === null) return e.hash;
  if (typeof contentHash !== "string" || !/^[0-9a-f]{64}$/.test(contentHash)) return "";
  return auditLinkHash(e.prevHash, contentHash);
}

/** Each stream in its own order: a position skipped, or a link that does not hold; and its part of the file. */
function checkStreamOrder(streams: Map<string, TFoundEvent[]>, problems: TExportProblem[]): Map<string, TFoundPart> {
  const parts = new Map<string, TFoundPart>();
  for (const [stream, events] of streams) {
    events.sort((a, b) => a.streamSeq - b.streamSeq);
    for (let k = 1; k < events.length; k++) {
      const before = events[k - 1]!;
      const e = events[k]!;
      // Version 1 (the legacy single chain) numbered nothing: only its links are checked.
      if (e.version >= 2 && e.streamSeq > before.streamSeq + 1) {
        problems.push({
          kind: "event_missing",
          stream,
          afterSeq: before.seq,
          beforeSeq: e.seq,
          positions: before.streamSeq + 2 === e.streamSeq ? `#${before.streamSeq + 1}` : `#${before.streamSeq + 1}–#${e.streamSeq - 1}`,
        });
      } else if (e.streamSeq === before.streamSeq || (e.streamSeq === before.streamSeq + 1 && e.prevHash !== before.hash)) {
        problems.push({ kind: "link_broken", line: e.line, seq: e.seq, stream });
      }
    }
    const last = events.at(-1)!;
    parts.set(stream, { first: events[0]!.streamSeq, last: last.streamSeq, events: events.length, lastHash: last.hash, lastSeq: last.seq });
  }
  return parts;
}

/** The seal verifies with the key, and seals this header. */
function checkSeal(seal: TExportSeal, header: TExportHeader | null, publicKey: KeyObject, problems: TExportProblem[]): void {
  const why = sealValid(seal, publicKey);
  if (why) problems.push({ kind: "seal_invalid", why });
  else if (header && seal.headerHash !== exportLineHash(header))
    problems.push({ kind: "seal_invalid", why: "the header is not the one sealed (its range or author changed)" });
}

/** Stream by stream, against what was sealed: a part removed at either end, re-hashed, or added. */
function checkSealedStreams(seal: TExportSeal, parts: Map<string, TFoundPart>, problems: TExportProblem[]): void {
  for (const [stream, sealed] of Object.entries(seal.streams ?? {})) {
    const found = parts.get(stream);
    if (!found)
      problems.push({
        kind: "stream_differs",
        stream,
        why: `all ${sealed.events} of its events (#${sealed.first}–#${sealed.last}) are missing`,
      });
    else if (found.last < sealed.last)
      problems.push({
        kind: "stream_differs",
        stream,
        why: `it ends at #${found.last} (seq ${found.lastSeq}); the seal says #${sealed.last}: its last events were removed`,
      });
    else if (found.first > sealed.first)
      problems.push({
        kind: "stream_differs",
        stream,
        why: `it starts at #${found.first}; the seal says #${sealed.first}: its first events were removed`,
      });
    else if (found.lastHash !== sealed.lastHash)
      problems.push({ kind: "stream_differs", stream, why: `its last hash is not the sealed one: its events were re-hashed` });
  }
  for (const stream of parts.keys())
    if (!seal.streams?.[stream]) problems.push({ kind: "stream_differs", stream, why: "it is not in the seal: its events were added" });
}

/** The whole file against the seal: how many events, the last one, and the digest over every hash in order. */
function checkSealedCounts(seal: TExportSeal, read: TExportRead, problems: TExportProblem[]): void {
  const { events, lastSeq } = read;
  if (events < seal.events) problems.push({ kind: "events_missing", sealed: seal.events, found: events });
  if (events > seal.events) problems.push({ kind: "events_added", sealed: seal.events, found: events });
  if (lastSeq !== seal.lastSeq) problems.push({ kind: "last_differs", sealed: seal.lastSeq, found: lastSeq });
  if (events === seal.events && read.digest.done() !== seal.digest) problems.push({ kind: "chain_rehashed" });
  const sealed = seal.redactions ?? { events: 0, digest: windowDigester().done() };
  const found = read.redacted;
  if (found.events !== sealed.events)
    problems.push({ kind: "redactions_differ", why: `the file has ${found.events} redacted event(s); the seal says ${sealed.events}` });
  else if (found.digest.done() !== sealed.digest)
    problems.push({ kind: "redactions_differ", why: "a redacted event's line is not the one sealed (it was edited)" });
}

/** Each problem in words, for the command's output. */
export function describeExportProblem(p: TExportProblem): string {
  switch (p.kind) {
    case "unreadable":
      return `line ${p.line}: ${p.why}`;
    case "header_missing":
      return "the header (line 1) is missing";
    case "seal_missing":
      return `the seal is missing: the file was cut short${p.lastSeq ? ` after event seq ${p.lastSeq}` : ""}`;
    case "seal_invalid":
      return `the seal does not hold: ${p.why}`;
    case "event_altered":
      return `event seq ${p.seq} (${p.action}, line ${p.line}) was altered: its hash does not match its contents`;
    case "event_missing":
      return `stream ${p.stream}: position ${p.positions} is missing, between seq ${p.afterSeq} and seq ${p.beforeSeq} (an event was removed)`;
    case "link_broken":
      return `event seq ${p.seq} (line ${p.line}) does not chain onto the event before it in stream ${p.stream}`;
    case "stream_differs":
      return `stream ${p.stream}: ${p.why}`;
    case "events_missing":
      return `${p.sealed - p.found} sealed event(s) are missing (the seal counts ${p.sealed}, the file holds ${p.found})`;
    case "events_added":
      return `${p.found - p.sealed} event(s) were added (the seal counts ${p.sealed}, the file holds ${p.found})`;
    case "last_differs":
      return `the last event is seq ${p.found ?? "none"}; the seal says seq ${p.sealed ?? "none"}${p.found !== null && p.sealed !== null && BigInt(p.found) < BigInt(p.sealed) ? ": the end of the file was removed" : ""}`;
    case "chain_rehashed":
      return "the events' hashes, in order, are not the sealed ones: events were re-hashed or reordered";
    case "redactions_differ":
      return `the redacted events do not hold: ${p.why}`;
  }
}
