// The ticket page's side column: who holds the ticket, the ticket as it came in, and how it was admitted.
import { Card, Fact } from "@/components/card";
import { ReasonText } from "@/components/status-badge";
import { formatMoney } from "@/lib/agent/rule-drafter";
import type { TSessionUser } from "@/lib/auth/session";
import { mayHoldTickets } from "@/lib/queue/assign-ticket";
import { AssignForm } from "./assign-form";
import type { TTicketView } from "./ticket-view";

type TTicket = TTicketView["ticket"];

export function AssigneeCard({ page, user }: { page: TTicketView; user: TSessionUser }) {
  const { ticket } = page;
  return (
    <Card title="Assignee" id="assignee-heading">
      {page.may.assign ? (
        <AssignForm
          ticketId={ticket.id}
          assignee={ticket.assignee}
          me={user.id}
          mayClaim={mayHoldTickets(user.role)}
          resolved={ticket.status === "resolved"}
          people={page.people}
        />
      ) : (
        <p className="text-[13px] text-slate-800">{ticket.assignee?.name ?? "Unassigned"}</p>
      )}
    </Card>
  );
}

/** The customer's message, and what it is about: the customer, the order, where and when it came in. */
export function TicketCard({ ticket, order }: { ticket: TTicket; order: TTicketView["order"] }) {
  return (
    <Card title="Ticket" id="ticket-heading">
      <p className="whitespace-pre-wrap wrap-anywhere text-[13px] text-slate-800">{ticket.body}</p>
      <dl className="mt-3 divide-y divide-slate-100 border-t border-slate-100">
        <Fact label="Customer">{ticket.customerEmail}</Fact>
        <Fact label="Order">
          {order
            ? `${order.id} · ${order.item} · ${formatMoney(order.amountCents, order.currency)}`
            : ticket.orderRef
              ? `${ticket.orderRef} (not found)`
              : "–"}
        </Fact>
        {order?.customer.flagged ? <Fact label="Account">Flagged</Fact> : null}
        <Fact label="Source">{ticket.source}</Fact>
        <Fact label="Received">{ticket.createdAt.toISOString().replace("T", " ").slice(0, 16)} UTC</Fact>
      </dl>
    </Card>
  );
}

export function AdmissionCard({ ticket }: { ticket: TTicket }) {
  return (
    <Card title="Admission" id="admission-heading">
      <dl className="divide-y divide-slate-100">
        <Fact label="Result">
          <code className="font-mono">{ticket.admission}</code>
        </Fact>
        <Fact label="Reason">
          <ReasonText reason={ticket.admissionReason} />
        </Fact>
        <Fact label="Route">
          <code className="font-mono">{ticket.route}</code>
        </Fact>
        <Fact label="Bundle">
          <code className="font-mono">{ticket.bundleVersion}</code>
        </Fact>
      </dl>
    </Card>
  );
}
