// Thousands of approvals in the right state, quickly and honestly. The agent runs on two cracked-tablet
// tickets through the real code (runAgent), and a reviewer approves one of them (decideApproval): those
// two rows are the templates, in exactly the states the real code leaves them. Each clone copies its
// template's rows – ticket, order, refund proposal, approval request and, for an approved one, the
// decision – column by column with fresh ids, and recomputes what depends on them: its own order (so
// every refund has room, and no two executions queue on one order's lock), the ticket's route
// signature over its new id, the operation with that order, and the approval digest over it (the
// executor checks both digests). Columns the code adds later are copied as they are.
//
// Ids are derived from a 12-digit number k (a uuid's last group), so a pgbench script can name clone k
// by substituting k into the text: `a0000000-0000-4000-8000-:k`.
import type { PrismaClient } from "../../generated/prisma/client";
import { approvalDigest, approvalOperation, type TApprovalOperation } from "../../lib/contracts/approval-operation";
import { decideApproval } from "../../lib/approvals/decide-approval";
import { signDecision } from "../../lib/audit/decision-signature";
import { intakeBundleKey } from "../../lib/env";
import { routeClaimId, signRoute } from "../../lib/intake/route-signature";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";

/** Each pool gets its own range of k, so pools never share an id. */
export const POOL_RANGES = { executor: 1, pgbenchExecutor: 2, decide: 3 } as const;
export type TPoolName = keyof typeof POOL_RANGES;

/** The fixed part of each derived id; k (12 digits) completes it. */
export const ID_PREFIX = {
  approval: "a0000000-0000-4000-8000-",
  ticket: "7e000000-0000-4000-8000-",
  proposal: "b0000000-0000-4000-8000-",
  decision: "dec00000-0000-4000-8000-",
  order: "ORD-BENCH-",
} as const;

export const kOf = (pool: TPoolName, index: number) => String(POOL_RANGES[pool] * 100_000_000_000 + index);
export const poolIds = (k: string) => ({
  approval: ID_PREFIX.approval + k,
  ticket: ID_PREFIX.ticket + k,
  proposal: ID_PREFIX.proposal + k,
  decision: ID_PREFIX.decision + k,
  order: ID_PREFIX.order + k,
});

export interface TTemplates {
  reviewer: { id: string; role: "REVIEWER" | "SPECIALIST" | "LEAD" | "ADMIN" };
  /** A refund request the agent stopped with, waiting for a person. */
  pending: string;
  /** The same, approved by a reviewer through decideApproval. */
  approved: string;
}

export async function makeTemplates(client: PrismaClient): Promise<TTemplates> {
  const reviewer = await user(client, "REVIEWER");
  const pending = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
  const approved = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
  if (pending.kind !== "refund" || approved.kind !== "refund") throw new Error("the cracked-tablet run did not stop at a refund approval");
  await decideApproval({ approvalId: approved.id, decision: "approve", digest: approved.digest, actor: reviewer, client });
  return { reviewer, pending: pending.id, approved: approved.id };
}

/** The table's columns, minus those filled by a sequence or generated (the clone gets its own). */
async function columns(client: PrismaClient, table: string): Promise<string[]> {
  const rows = await client.$queryRaw<{ column_name: string }[]>`
    SELECT column_name FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name = ${table}
       AND is_generated = 'NEVER' AND is_identity = 'NO' AND coalesce(column_default, '') NOT LIKE 'nextval(%'
     ORDER BY ordinal_position`;
  return rows.map((r) => r.column_name);
}

/** INSERT … SELECT copying the template row once per clone, with some columns computed. */
async function cloneRows(
  client: PrismaClient,
  table: string,
  templateId: string,
  overrides: Record<string, string>,
  args: unknown[],
  unnest: string,
): Promise<number> {
  const cols = await columns(client, table);
  for (const col of Object.keys(overrides)) if (!cols.includes(col)) throw new Error(`${table}.${col} is not a column`);
  const list = cols.map((c) => `"${c}"`).join(", ");
  const exprs = cols.map((c) => overrides[c] ?? `t."${c}"`).join(", ");
  const sql = `INSERT INTO "${table}" (${list}) SELECT ${exprs} FROM "${table}" t CROSS JOIN ${unnest} WHERE t.id = $1`;
  return client.$executeRawUnsafe(sql, templateId, ...args);
}

/**
 * Adds `count` clones of a template to the pool named `pool`, from index `from`: approved ones
 * (with their decision) for the executor, pending ones for decideApproval. Returns their approval ids
 * and digests (a person's decision names the digest they saw).
 */
export async function clonePool(
  client: PrismaClient,
  templateId: string,
  pool: TPoolName,
  from: number,
  count: number,
): Promise<{ id: string; digest: string }[]> {
  // In slices: a faster executor means a bigger pool, and one statement carrying a hundred thousand
  // operations held gigabytes in this process (the bench ran out of heap at ~100k).
  const cloned: { id: string; digest: string }[] = [];
  for (let at = from; at < from + count; at += CLONE_SLICE)
    cloned.push(...(await cloneSlice(client, templateId, pool, at, Math.min(CLONE_SLICE, from + count - at))));
  return cloned;
}

const CLONE_SLICE = 10_000;

async function cloneSlice(
  client: PrismaClient,
  templateId: string,
  pool: TPoolName,
  from: number,
  count: number,
): Promise<{ id: string; digest: string }[]> {
  const template = await client.approvalRequest.findUniqueOrThrow({
    where: { id: templateId },
    include: { ticket: true, proposal: true, decisions: true },
  });
  const templateDecision = template.decisions[0];
  if (!template.proposal) throw new Error("the template approval has no refund proposal");
  const approved = template.status === "approved";
  if (approved && !templateDecision) throw new Error("the approved template has no decision");
  const templateOrder = template.proposal.orderId;
  const operation = template.operation as unknown as TApprovalOperation;
  const key = intakeBundleKey();

  const ks: string[] = [];
  const digests: string[] = [];
  const operations: string[] = [];
  const signatures: (string | null)[] = [];
  // Each clone's decision is signed for itself (the executor verifies it), at one time for the slice.
  const decidedAt = new Date();
  const decisionSignatures: (string | null)[] = [];
  for (let i = from; i < from + count; i++) {
    const k = kOf(pool, i);
    const ids = poolIds(k);
    // The draft names the order; the clone's draft names its own, and the digest covers both (and the
    // customer's text made from the draft), built by the one builder the decision checks against.
    const op: TApprovalOperation = approvalOperation({
      proposal: { ...operation.proposal!, orderId: ids.order },
      draft: operation.draft === null ? null : operation.draft.replaceAll(templateOrder, ids.order),
      policyVersion: operation.policyVersion,
      bundleVersion: operation.bundleVersion,
      corpusHash: operation.corpusHash,
    });
    ks.push(k);
    digests.push(approvalDigest(op));
    decisionSignatures.push(
      templateDecision
        ? signDecision({
            approvalRequestId: ids.approval,
            digest: digests.at(-1)!,
            decision: templateDecision.decision,
            deciderId: templateDecision.deciderId,
            deciderRole: templateDecision.deciderRole,
            automatic: templateDecision.automatic,
            seat: templateDecision.seat,
            approvalsRequired: template.approvalsRequired,
            decidedAt,
          }).signature
        : null,
    );
    operations.push(JSON.stringify(op));
    signatures.push(
      template.ticket.routeSignature === null
        ? null
        : signRoute(
            {
              ticketId: routeClaimId({ id: ids.ticket, externalId: null }),
              route: template.ticket.route,
              bundleVersion: template.ticket.bundleVersion,
            },
            key,
          ),
    );
  }
  const unnest = `unnest($2::text[], $3::text[], $4::jsonb[], $5::text[], $6::text[]) AS c(k, digest, operation, signature, "decisionSignature")`;
  const args = [ks, digests, operations, signatures, decisionSignatures];
  const order = `'${ID_PREFIX.order}' || c.k`;
  const swapOrder = (col: string) => `replace(t."${col}", '${templateOrder.replaceAll("'", "''")}', ${order})`;
  const now = "now()";

  await client.$transaction(
    async (tx) => {
      const t = tx as unknown as PrismaClient;
      await cloneRows(t, "Order", templateOrder, { id: order, createdAt: now }, args, unnest);
      await cloneRows(
        t,
        "Ticket",
        template.ticketId,
        {
          id: `('${ID_PREFIX.ticket}' || c.k)::uuid`,
          externalId: "NULL",
          payloadHash: "NULL",
          orderRef: order,
          body: swapOrder("body"),
          routeSignature: "c.signature",
          createdAt: now,
          updatedAt: now,
        },
        args,
        unnest,
      );
      await cloneRows(
        t,
        "RefundProposal",
        template.proposal!.id,
        { id: `('${ID_PREFIX.proposal}' || c.k)::uuid`, ticketId: `('${ID_PREFIX.ticket}' || c.k)::uuid`, orderId: order, createdAt: now },
        args,
        unnest,
      );
      await cloneRows(
        t,
        "ApprovalRequest",
        template.id,
        {
          id: `('${ID_PREFIX.approval}' || c.k)::uuid`,
          ticketId: `('${ID_PREFIX.ticket}' || c.k)::uuid`,
          proposalId: `('${ID_PREFIX.proposal}' || c.k)::uuid`,
          digest: "c.digest",
          operation: "c.operation",
          draft: swapOrder("draft"),
          createdAt: now,
        },
        args,
        unnest,
      );
      if (approved) {
        await cloneRows(
          t,
          "ApprovalDecision",
          templateDecision!.id,
          {
            id: `('${ID_PREFIX.decision}' || c.k)::uuid`,
            approvalRequestId: `('${ID_PREFIX.approval}' || c.k)::uuid`,
            digest: "c.digest",
            originalReply: swapOrder("originalReply"),
            signature: 'c."decisionSignature"',
            createdAt: `'${decidedAt.toISOString()}'::timestamp`,
          },
          args,
          unnest,
        );
      }
    },
    { timeout: 600_000, maxWait: 60_000 },
  );

  // The clones must be what the real code would have made: spot-check one against the digest rules.
  const sample = await client.approvalRequest.findUniqueOrThrow({
    where: { id: poolIds(ks[0]!).approval },
    include: { decisions: true, proposal: true },
  });
  const sampleOp = sample.operation as unknown as TApprovalOperation;
  if (
    approvalDigest(sampleOp) !== sample.digest ||
    sampleOp.draft !== sample.draft ||
    sampleOp.proposal?.orderId !== sample.proposal?.orderId ||
    (approved && sample.decisions[0]?.digest !== sample.digest)
  ) {
    throw new Error("a cloned approval does not match its own digest");
  }
  return ks.map((k, i) => ({ id: poolIds(k).approval, digest: digests[i]! }));
}
