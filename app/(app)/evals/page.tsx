import type { Metadata } from "next";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { requireRole } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Evaluations" };

export default async function EvaluationsPage() {
  await requireRole("evals");
  return (
    <>
      <PageHeader title="Evaluations" description="Graded episode runs and the release decisions based on them." />
      <EmptyState title="No evaluation runs yet">Episodes and release decisions arrive in a later release.</EmptyState>
    </>
  );
}
