// Appends events to the audit chain. Callers write events inside the same transaction as the effect
// they describe, before the effect: if the effect fails the events roll back with it, and no effect
// exists without its event.
//
// The chain is one hash chain per stream – the ticket an event concerns, or its subject when there is
// none – so appends for independent tickets never wait for each other: an append queues only on its
// stream's head row (countersign_append_audit, in the migrations). Signed checkpoints bind all the
// streams together (checkpoint.ts).
import type { DbTx } from "../db";
import { toJson } from "../db";
import type { TSqlTx } from "../db/driver";
import { appendAudit } from "./store/audit-store";
import type { TAuditAction } from "../contracts/audit-actions";
import { canonicalJson, sha256Hex } from "../contracts/canonical";

export const GENESIS_HASH = "0".repeat(64);

export type ActorType = "user" | "agent" | "system" | "api";

export interface TAuditInput {
  actorType: ActorType;
  actorId?: string | null;
  /** One of the closed list in lib/contracts/audit-actions.ts. */
  action: TAuditAction;
  subjectType: string;
  subjectId?: string | null;
  ticketId?: string | null;
  inputs?: unknown;
  policyDecision?: unknown;
  idempotencyKey?: string | null;
}

/** The stream an event belongs to: its ticket's, or its subject's. */
export function auditStream(event: Pick<TAuditInput, "ticketId" | "subjectType" | "subjectId">): string {
  return event.ticketId ? `ticket:${event.ticketId}` : `${event.subjectType}:${event.subjectId ?? ""}`;
}

/** An event as hashed: the action as it was written (verify reads events older than today's names). */
type THashed = Omit<TAuditInput, "action"> & { action: string; at: Date };

function hashedFields(event: THashed) {
  return {
    at: event.at.toISOString(),
    actorType: event.actorType,
    actorId: event.actorId ?? null,
    action: event.action,
    subjectType: event.subjectType,
    subjectId: event.subjectId ?? null,
    ticketId: event.ticketId ?? null,
    inputs: event.inputs ?? null,
    policyDecision: event.policyDecision ?? null,
    idempotencyKey: event.idempotencyKey ?? null,
  };
}

/** What an event says, hashed (version 2): its stream and every field a reader sees, canonical. */
export function auditContentHash(event: THashed & { stream: string }): string {
  return sha256Hex(canonicalJson({ ...hashedFields(event), stream: event.stream }));
}

/** A version-2 event's hash: its content chained onto the stream's previous hash. */
export function auditLinkHash(prevHash: string, contentHash: string): string {
  return sha256Hex(prevHash + contentHash);
}

/** The legacy single chain's hash (version 1), for events written before streams. */
export function legacyAuditHash(prevHash: string, event: THashed): string {
  return sha256Hex(canonicalJson({ prevHash, ...hashedFields(event) }));
}

/**
 * The events as countersign_append_audit's argument (JSON text): each with its stream and its content
 * hash, stamped now. For statements that append in the same round trip as their effect.
 */
export function auditAppendArgument(inputs: readonly TAuditInput[]): string {
  // Millisecond precision: what the timestamp(3) column stores, so the hash can be recomputed.
  const at = new Date();
  const events = inputs.map((input) => {
    // Json values as the database will return them (canonical, Dates as strings), so the hash holds.
    const fields = hashedFields({
      ...input,
      at,
      inputs: input.inputs == null ? null : toJson(input.inputs),
      policyDecision: input.policyDecision == null ? null : toJson(input.policyDecision),
    });
    const stream = auditStream(input);
    return { ...fields, stream, contentHash: sha256Hex(canonicalJson({ ...fields, stream })) };
  });
  return JSON.stringify(events);
}

/** Appends events, in order, in one round trip: through Prisma, or straight on the driver. */
export async function recordAuditEvents(tx: DbTx | TSqlTx, inputs: readonly TAuditInput[]): Promise<void> {
  if (inputs.length === 0) return;
  await appendAudit(tx, auditAppendArgument(inputs));
}

export function recordAuditEvent(tx: DbTx | TSqlTx, input: TAuditInput): Promise<void> {
  return recordAuditEvents(tx, [input]);
}
