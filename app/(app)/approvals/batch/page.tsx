import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { requireRole } from "@/lib/auth/session";
import { MAX_BATCH_DECISIONS, previewBatch } from "@/lib/approvals/decide-batch";
import { BatchDecisionForm } from "./batch-form";

export const metadata: Metadata = { title: "Decide a batch" };

const ZTicketIds = z.array(z.uuid()).max(MAX_BATCH_DECISIONS);

/** /approvals/batch?t=<ticket id>&t=…: the waiting approvals of the tickets selected in the queue. */
export default async function BatchDecisionPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireRole("approve");
  const raw = (await searchParams).t;
  const parsed = ZTicketIds.safeParse(raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]);
  const rows = parsed.success && parsed.data.length ? await previewBatch({ ticketIds: parsed.data, viewer: user }) : [];
  return (
    <>
      <PageHeader
        title="Decide a batch"
        description={`Each selected request is decided against the operation shown here (its own digest), with one note for all; at most ${MAX_BATCH_DECISIONS} at once. A request that changed, went stale or expired since is refused on its own, and the others are decided.`}
      />
      {!parsed.success ? (
        <EmptyState title="The selection is not valid">
          Select at most {MAX_BATCH_DECISIONS} tickets in the queue.{" "}
          <Link href="/?view=approval" className="font-medium text-indigo-700 hover:underline">
            Back to the approvals
          </Link>
        </EmptyState>
      ) : rows.length === 0 ? (
        <EmptyState title="Nothing waits for a decision among these tickets">
          <Link href="/?view=approval" className="font-medium text-indigo-700 hover:underline">
            Back to the approvals
          </Link>
        </EmptyState>
      ) : (
        <BatchDecisionForm rows={rows.map((r) => ({ ...r, expiresAt: r.expiresAt.toISOString() }))} />
      )}
    </>
  );
}
