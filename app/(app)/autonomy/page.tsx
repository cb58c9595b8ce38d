import type { Metadata } from "next";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { requireRole } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Autonomy" };

export default async function AutonomyPage() {
  await requireRole("autonomy");
  return (
    <>
      <PageHeader title="Autonomy" description="How large a refund the agent may approve on its own, and the evidence for raising it." />
      <EmptyState title="The dial is at zero">Every refund needs a person. The autonomy dial and its shadow-run evidence arrive in a later release.</EmptyState>
    </>
  );
}
