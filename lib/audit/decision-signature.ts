// Approval decisions the database cannot forge. Every decision – a person's, a hand reply's, the
// system's approval within the dial – is signed by the app with the audit signing key (checkpoint.ts:
// Ed25519, AUDIT_SIGNING_KEY or the key file in DATA_DIR), which the database never sees. The
// signature covers what makes the decision an approval of one operation: the request, its digest, the
// decision, who decided (id and role, or the system), the seat of how many, and when. Someone holding
// the app's database role can write a decision row, but not its signature: the executor, the refund
// reconciliation and `npm run audit:verify` all ask `decisionSignatureProblem` and refuse or name a
// row whose signature does not verify against a known public key.
//
// The time signed is the time stored (`createdAt`): the writer passes it into its statement rather
// than letting the database take now(), so the executor can judge expiry on the signed time.
import { sign, verify, type KeyObject } from "node:crypto";
import { statSync } from "node:fs";
import type { Role } from "../../generated/prisma/enums";
import { canonicalJson } from "../contracts/canonical";
import { env } from "../env";
import { keyIdOf, signingKey, signingKeyFile, type TSigningKey } from "./checkpoint";

/** What a decision's signature covers. */
export interface TSignedDecision {
  approvalRequestId: string;
  digest: string;
  decision: "approve" | "reject";
  /** Null for a system approval. */
  deciderId: string | null;
  deciderRole: Role;
  automatic: boolean;
  /** The decision's seat, of the request's `approvalsRequired`. */
  seat: number;
  approvalsRequired: number;
  decidedAt: Date;
}

export interface TDecisionSignature {
  /** Ed25519 over the canonical decision, base64. */
  signature: string;
  keyId: string;
}

/** The public keys a decision may be signed with, by key id. */
export type TDecisionKeys = ReadonlyMap<string, KeyObject>;

function signedBytes(d: TSignedDecision): Buffer {
  return Buffer.from(
    canonicalJson({
      signs: "countersign.approval-decision.v1",
      approvalRequestId: d.approvalRequestId.toLowerCase(),
      digest: d.digest,
      decision: d.decision,
      deciderId: d.deciderId?.toLowerCase() ?? null,
      deciderRole: d.deciderRole,
      automatic: d.automatic,
      seat: d.seat,
      approvalsRequired: d.approvalsRequired,
      decidedAt: d.decidedAt.toISOString(),
    }),
  );
}

// The key is read once per process and setting, and again only when its file changes: the executor
// verifies on every refund.
let cached: { source: string; key: TSigningKey } | null = null;

function keyFileVersion(): string | null {
  try {
    return `file:${signingKeyFile()}:${statSync(/*turbopackIgnore: true*/ signingKeyFile()).mtimeMs}`;
  } catch {
    return null;
  }
}

function currentKey(): TSigningKey {
  const configured = env().AUDIT_SIGNING_KEY;
  const source = configured ? `env:${configured}` : keyFileVersion();
  if (source !== null && cached?.source === source) return cached.key;
  // signingKey() creates the key file on first use; its version is read after.
  const key = signingKey();
  cached = { source: source ?? keyFileVersion() ?? "", key };
  return key;
}

/** Signs a decision, before the statement that stores it, with the time that statement stores. */
export function signDecision(d: TSignedDecision, key: TSigningKey = currentKey()): TDecisionSignature {
  return { signature: sign(null, signedBytes(d), key.privateKey).toString("base64"), keyId: key.keyId };
}

/**
 * The keys decisions verify against: the signing key's public half when this process has one (it is
 * never created to verify), and any given (a key of before, a published one).
 */
export function decisionKeys(extra: readonly KeyObject[] = []): TDecisionKeys {
  const keys = new Map<string, KeyObject>();
  if (env().AUDIT_SIGNING_KEY || keyFileVersion() !== null) {
    const own = currentKey();
    keys.set(own.keyId, own.publicKey);
  }
  for (const k of extra) keys.set(keyIdOf(k), k);
  return keys;
}

/**
 * Why a stored decision's signature does not stand, in words, or null when it verifies: unsigned (a
 * row from before decisions were signed, or written past the app), signed with a key not known here,
 * or a signature that does not verify over the stored fields (a field altered, or a signature made up
 * or copied from another decision).
 */
export function decisionSignatureProblem(
  d: TSignedDecision & { signature: string | null; keyId: string | null },
  keys: TDecisionKeys = decisionKeys(),
): string | null {
  if (!d.signature || !d.keyId) return "it is not signed";
  const key = keys.get(d.keyId);
  if (!key) return `its signature is by key ${d.keyId}, not a known key`;
  let valid = false;
  try {
    valid = verify(null, signedBytes(d), key, Buffer.from(d.signature, "base64"));
  } catch {
    valid = false;
  }
  return valid ? null : "its signature does not verify";
}

/** A stored decision as its readers hold it: the signed fields a request does not give, its signature. */
export type TStoredDecision = Omit<TSignedDecision, "approvalRequestId" | "approvalsRequired"> & {
  signature: string | null;
  keyId: string | null;
};

/**
 * The first of a request's decisions whose signature does not stand, named by its seat and why, or
 * null when every one verifies: what the executor and the refund reconciliation refuse on.
 */
export function decisionsSignatureProblem(
  request: { id: string; approvalsRequired: number },
  decisions: readonly TStoredDecision[],
  keys: TDecisionKeys = decisionKeys(),
): string | null {
  for (const d of decisions) {
    const problem = decisionSignatureProblem({ ...d, approvalRequestId: request.id, approvalsRequired: request.approvalsRequired }, keys);
    if (problem) return `the decision in seat ${d.seat} has a bad signature: ${problem}`;
  }
  return null;
}
