import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { requireRole } from "@/lib/auth/session";
import { NewTicketForm } from "./new-ticket-form";

export const metadata: Metadata = { title: "New ticket" };

export default async function NewTicketPage() {
  await requireRole("newTicket");
  return (
    <>
      <PageHeader
        title="New ticket"
        description="Type in a customer's request; the built-in intake classifier routes and signs it, and the ticket page shows whether it was admitted."
      />
      <NewTicketForm />
    </>
  );
}
