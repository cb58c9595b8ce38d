import type { Metadata } from "next";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { requireRole } from "@/lib/auth/session";

export const metadata: Metadata = { title: "New ticket" };

export default async function NewTicketPage() {
  await requireRole("newTicket");
  return (
    <>
      <PageHeader title="New ticket" description="Type in a customer's request; the built-in intake classifier routes and signs it." />
      <EmptyState title="Not available yet">The new-ticket form arrives in a later release.</EmptyState>
    </>
  );
}
