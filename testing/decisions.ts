// Decision rows as the app writes them, for tests that put a decision into the database directly (a
// crash between a decision and its job, a row the rules must refuse): each field as the test needs
// it, and the signature made over those fields by the app's own function (lib/audit/decision-signature.ts),
// as every decision since signing must carry one.
import type { PrismaClient } from "../generated/prisma/client";
import type { Role } from "../generated/prisma/enums";
import { signDecision } from "../lib/audit/decision-signature";
import type { TSigningKey } from "../lib/audit/checkpoint";

export interface TDecisionFields {
  approvalRequestId: string;
  decision?: "approve" | "reject";
  deciderId: string | null;
  deciderRole: Role;
  digest: string;
  automatic?: boolean;
  seat?: number;
  createdAt?: Date;
  note?: string | null;
}

/** The row's data for `approvalDecision.create`, signed (with `key`, by default the app's). */
export async function signedDecision(client: PrismaClient, f: TDecisionFields, key?: TSigningKey) {
  const request = await client.approvalRequest.findUniqueOrThrow({
    where: { id: f.approvalRequestId },
    select: { approvalsRequired: true },
  });
  const row = {
    approvalRequestId: f.approvalRequestId,
    decision: f.decision ?? ("approve" as const),
    deciderId: f.deciderId,
    deciderRole: f.deciderRole,
    digest: f.digest,
    automatic: f.automatic ?? false,
    seat: f.seat ?? 1,
    createdAt: f.createdAt ?? new Date(),
    ...(f.note === undefined ? {} : { note: f.note }),
  };
  const signed = signDecision({ ...row, approvalsRequired: request.approvalsRequired, decidedAt: row.createdAt }, key);
  return { ...row, ...signed };
}

/** Writes a signed decision row (and nothing else: the request's status is the test's to set). */
export async function insertSignedDecision(client: PrismaClient, f: TDecisionFields, key?: TSigningKey) {
  return client.approvalDecision.create({ data: await signedDecision(client, f, key) });
}
