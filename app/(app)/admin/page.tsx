import type { Metadata } from "next";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { requireRole } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Admin" };

export default async function AdminPage() {
  await requireRole("admin");
  return (
    <>
      <PageHeader title="Admin" description="Users, roles and policy settings." />
      <EmptyState title="Not available yet">User and settings management arrive in a later release. Until then, add users with npm run user:add.</EmptyState>
    </>
  );
}
