// Appends one event to the audit chain. Callers write the event inside the same transaction as the
// effect it describes, before the effect: if the effect fails the event rolls back with it, and no
// effect exists without its event.
import type { DbTx } from "../db";
import { toJsonOrNull } from "../db";
import { canonicalJson, sha256Hex } from "./canonical";

export const GENESIS_HASH = "0".repeat(64);

export type ActorType = "user" | "agent" | "system" | "api";

export interface TAuditInput {
  actorType: ActorType;
  actorId?: string | null;
  action: string;
  subjectType: string;
  subjectId?: string | null;
  ticketId?: string | null;
  inputs?: unknown;
  policyDecision?: unknown;
  idempotencyKey?: string | null;
}

/** The fields the hash covers, in a fixed shape: verify-audit-chain recomputes exactly this. */
export function auditHash(prevHash: string, event: TAuditInput & { at: Date }): string {
  return sha256Hex(
    canonicalJson({
      prevHash,
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
    }),
  );
}

// One fixed advisory-lock key serialises appends, so two transactions never chain onto the same
// predecessor. Held until the transaction ends.
const CHAIN_LOCK = 0x636f756e; // "coun"

export async function recordAuditEvent(tx: DbTx, input: TAuditInput) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${CHAIN_LOCK})`;
  const last = await tx.auditEvent.findFirst({ orderBy: { seq: "desc" }, select: { hash: true } });
  const prevHash = last?.hash ?? GENESIS_HASH;
  // Millisecond precision: what the timestamp(3) column stores, so the hash can be recomputed.
  const at = new Date(Math.floor(Date.now()));
  return tx.auditEvent.create({
    data: {
      at,
      actorType: input.actorType,
      actorId: input.actorId ?? null,
      action: input.action,
      subjectType: input.subjectType,
      subjectId: input.subjectId ?? null,
      ticketId: input.ticketId ?? null,
      inputs: toJsonOrNull(input.inputs),
      policyDecision: toJsonOrNull(input.policyDecision),
      idempotencyKey: input.idempotencyKey ?? null,
      prevHash,
      hash: auditHash(prevHash, { ...input, at }),
    },
  });
}
