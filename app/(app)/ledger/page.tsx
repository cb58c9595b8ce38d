import type { Metadata } from "next";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { requireRole } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Ledger" };

export default async function LedgerPage() {
  await requireRole("ledger");
  return (
    <>
      <PageHeader title="Ledger" description="Every refund the executor has written: one row per approved operation." />
      <EmptyState title="No refunds yet">The ledger view arrives in a later release. Refunds appear here only after a person approves them.</EmptyState>
    </>
  );
}
