// The ticket's conversation, oldest first: the customer's messages, the agent's drafts, what was sent
// and where, reviewers' feedback and internal notes; and, for people who work tickets, a note form.
import { Card } from "@/components/card";
import type { TConversationMessage } from "@/lib/tickets/conversation";
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
};

const at = (d: Date) => `${d.toISOString().replace("T", " ").slice(0, 16)} UTC`;

/** Where a sent reply went and whether it got there; where any other message came from. */
function whereText(m: TConversationMessage): string {
  const channel = CHANNEL_LABELS[m.channel] ?? m.channel;
  if (!m.delivery) return channel;
  if (m.delivery.state === "withdrawn") return `${channel}, withdrawn before it was sent: the refund failed`;
  return m.delivery.state === "delivered" ? `${channel}, fetched ${at(m.delivery.at!)}` : `${channel}, waiting to be fetched`;
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
          </li>
        ))}
      </ol>
      {mayNote ? <NoteForm ticketId={ticketId} /> : null}
    </Card>
  );
}
