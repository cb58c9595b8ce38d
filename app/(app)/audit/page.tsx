import type { Metadata } from "next";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { requireRole } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Audit" };

export default async function AuditPage() {
  await requireRole("audit");
  return (
    <>
      <PageHeader title="Audit" description="Search the append-only audit trail and check its hash chain." />
      <EmptyState title="Not available yet">Audit search arrives in a later release. Every action is already recorded.</EmptyState>
    </>
  );
}
