// The ticket's conversation, oldest first: the customer's messages, the agent's drafts, what was sent
// and where, reviewers' feedback and internal notes; and, for people who work tickets, a note form.
import { Card } from "@/components/card";
import type { TConversationMessage, TMessageDelivery } from "@/lib/tickets/conversation";
import { NoteForm } from "./note-form";

const KIND_LABELS: Record<TConversationMessage["kind"], string> = {
  customer: "Customer",
  agent_draft: "Agent's draft",
  reviewer: "Sent back to the agent",
  sent_reply: "Reply sent",
  internal_note: "Internal note",
};

const KIND_STYLES: Record<TConversationMessage["kind"], string> = {
  customer: "border-slate-200 bg-white",
  agent_draft: "border-indigo-200 bg-indigo-50/50",
  reviewer: "border-violet-200 bg-violet-50/60",
  sent_reply: "border-emerald-200 bg-emerald-50/60",
  internal_note: "border-amber-200 bg-amber-50/70",
};

const CHANNEL_LABELS: Record<string, string> = {
  api: "helpdesk (intake API)",
  form: "typed into the app",
  seed: "demo data",
  app: "in the app",
  outbox: "helpdesk outbox",
  webhook: "helpdesk webhook",
  zendesk: "Zendesk",
  email: "email",
};

const DELIVERY_STYLES: Record<TMessageDelivery["state"], string> = {
  pending: "bg-amber-100 text-amber-900",
  delivered: "bg-emerald-100 text-emerald-900",
  failed: "bg-red-100 text-red-900",
  withdrawn: "bg-slate-200 text-slate-900",
};

const at = (d: Date) => `${d.toISOString().replace("T", " ").slice(0, 16)} UTC`;

/** Where a sent reply went (its delivery's channel); where any other message came from. */
function whereText(m: TConversationMessage): string {
  const channel = m.delivery ? m.delivery.channel : m.channel;
  return channel ? (CHANNEL_LABELS[channel] ?? channel) : "not yet attempted";
}

/** A sent reply's delivery in words: its state, when, after how many attempts, or why it failed. */
function deliveryText(d: TMessageDelivery): string {
  const tries = `${d.attempts} attempt${d.attempts === 1 ? "" : "s"}`;
  if (d.state === "failed") return `Failed: ${d.failureReason ?? "unknown"} (${tries})`;
  if (d.state === "withdrawn") return "Withdrawn before it was sent: the refund failed at the payment provider";
  if (d.state === "pending") return d.attempts ? `Pending, retrying (${tries})` : "Pending";
  const delivered = `Delivered${d.deliveredAt ? ` ${at(d.deliveredAt)}` : ""}`;
  if (d.channel !== "outbox") return delivered;
  return d.fetchedAt ? `${delivered}, fetched ${at(d.fetchedAt)}` : `${delivered}, waiting to be fetched`;
}

export function Conversation({
  ticketId,
  messages,
  mayNote,
}: {
  ticketId: string;
  messages: readonly TConversationMessage[];
  mayNote: boolean;
}) {
  return (
    <Card title={`Conversation (${messages.length})`} id="conversation-heading" description="Oldest first. Internal notes are never sent.">
      <ol className="space-y-2" aria-label="Messages, oldest first">
        {messages.map((m) => (
          <li key={m.id} data-kind={m.kind} className={`rounded-md border px-3 py-2 ${KIND_STYLES[m.kind]}`}>
            <div className="flex flex-wrap items-baseline gap-x-2 text-[12px]">
              <span className="font-semibold text-slate-900">{KIND_LABELS[m.kind]}</span>
              <span className="wrap-anywhere text-slate-600">{m.authorLabel}</span>
              <span className="text-slate-500">· {whereText(m)}</span>
              <time className="ml-auto text-slate-500" dateTime={m.createdAt.toISOString()}>
                {at(m.createdAt)}
              </time>
            </div>
            <p className="mt-1 whitespace-pre-wrap wrap-anywhere text-[13px] text-slate-800">{m.body}</p>
            {m.delivery ? (
              <p className="mt-1 text-[12px]">
                <span className="text-slate-600">Delivery: </span>
                <span
                  data-testid="delivery-state"
                  className={`inline-block rounded px-1.5 py-0.5 font-medium ${DELIVERY_STYLES[m.delivery.state]}`}
                >
                  {deliveryText(m.delivery)}
                </span>
              </p>
            ) : null}
          </li>
        ))}
      </ol>
      {mayNote ? <NoteForm ticketId={ticketId} /> : null}
    </Card>
  );
}
