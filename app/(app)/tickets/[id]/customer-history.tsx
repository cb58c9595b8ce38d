// Beside the decision: what this customer asked before and how it was decided, and what has been
// refunded on this order already – so nobody approves a second refund of an order refunded last week
// without seeing it.
import Link from "next/link";
import { Card } from "@/components/card";
import { StatusBadge } from "@/components/status-badge";
import { formatMoney } from "@/lib/agent/rule-drafter";
import type { TCustomerHistory } from "@/lib/queue/load-customer-history";

const day = (at: Date) => at.toISOString().slice(0, 10);

function outcomeText(outcome: NonNullable<TCustomerHistory["earlier"][number]["outcome"]>): string {
  const what =
    outcome.kind === "refund" && outcome.amountCents !== null
      ? `refund of ${formatMoney(outcome.amountCents, outcome.currency ?? "USD")}`
      : "reply";
  switch (outcome.status) {
    case "approved":
      return `${what} approved ${outcome.automatic ? "within the autonomy dial" : `by ${outcome.decidedBy ?? "a person"}`}`;
    case "rejected":
      return `${what} rejected by ${outcome.decidedBy ?? "a person"}`;
    case "pending":
      return `${what} waiting for a decision`;
    default:
      return `${what} ${outcome.status}`;
  }
}

export function CustomerHistory({ history }: { history: TCustomerHistory }) {
  const { order, earlier, earlierCount } = history;
  return (
    <Card title="Customer history" id="history-heading">
      <div className="space-y-3 text-[13px]">
        {order ? (
          <div>
            <h3 className="text-[12px] font-medium text-slate-700">Refunds on {order.id}</h3>
            {order.refunds.length ? (
              <ul className="mt-1 space-y-0.5 text-slate-800">
                {order.refunds.map((r) => (
                  <li key={r.id}>
                    {formatMoney(r.amountCents, order.currency)} on {day(r.createdAt)}
                    {r.ticketNumber !== null ? (
                      <>
                        {" "}
                        for{" "}
                        <Link href={`/tickets/${r.ticketNumber}`} className="text-indigo-700 hover:underline">
                          #{r.ticketNumber}
                        </Link>
                      </>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-1 text-slate-600">None yet.</p>
            )}
            <p className="mt-1 text-slate-800" data-testid="remaining-refundable">
              <span className="font-medium">{formatMoney(order.remainingCents, order.currency)}</span> of{" "}
              {formatMoney(order.amountCents, order.currency)} remains refundable.
            </p>
          </div>
        ) : null}
        <div>
          <h3 className="text-[12px] font-medium text-slate-700">
            Earlier tickets {earlierCount > earlier.length ? `(latest ${earlier.length} of ${earlierCount})` : `(${earlierCount})`}
          </h3>
          {earlier.length ? (
            <ul className="mt-1 divide-y divide-slate-100">
              {earlier.map((t) => (
                <li key={t.id} className="py-1.5">
                  <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <Link href={`/tickets/${t.id}`} className="min-w-0 font-medium break-words text-indigo-700 hover:underline">
                      #{t.number} {t.subject}
                    </Link>
                    <StatusBadge status={t.status} />
                  </div>
                  <p className="text-[12px] text-slate-600">
                    {day(t.createdAt)}
                    {t.outcome ? ` · ${outcomeText(t.outcome)}` : " · no decision"}
                  </p>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-1 text-slate-600">None: this is the customer&apos;s first ticket.</p>
          )}
        </div>
      </div>
    </Card>
  );
}
