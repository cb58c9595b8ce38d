import { Card } from "@/components/card";
import { formatUtc } from "@/components/format";
import { JsonDetails } from "@/components/json-details";
import { loadAuditCurrencies } from "@/lib/audit/audit-currencies";
import { loadAuditNames } from "@/lib/audit/audit-names";
import { describeAuditAction, describeAuditActor, type TDescribable } from "@/lib/audit/describe-event";

export interface TTicketAuditEvent {
  seq: bigint;
  at: Date;
  action: string;
  actorType: string;
  actorId: string | null;
  subjectType: string;
  subjectId: string | null;
  inputs: unknown;
  policyDecision: unknown;
}

type TContext = Pick<TDescribable, "names" | "currencies" | "ticket">;

/** The event as recorded, for whoever needs more than the sentence: closed until asked for. */
function RawEvent({ e }: { e: TTicketAuditEvent }) {
  return (
    <details className="group mt-0.5 text-[12px] text-slate-500">
      <summary className="inline-flex min-h-6 cursor-pointer items-center gap-x-2">
        <span className="tabular-nums">#{e.seq.toString()}</span>
        <code className="font-mono font-medium text-slate-700">{e.action}</code>
        <span className="text-indigo-700 hover:underline">
          <span className="group-open:hidden">Show the raw event</span>
          <span className="hidden group-open:inline">Hide the raw event</span>
        </span>
      </summary>
      <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
        <dt>Actor</dt>
        <dd className="font-mono wrap-anywhere text-slate-700">
          {e.actorType}
          {e.actorId ? ` · ${e.actorId}` : ""}
        </dd>
        <dt>Subject</dt>
        <dd className="font-mono wrap-anywhere text-slate-700">
          {e.subjectType}
          {e.subjectId ? ` · ${e.subjectId}` : ""}
        </dd>
        <dt>Inputs</dt>
        <dd className="min-w-0">
          <JsonDetails value={e.inputs} label={`the inputs of event ${e.seq}`} />
        </dd>
        {e.policyDecision ? (
          <>
            <dt>Policy</dt>
            <dd className="min-w-0">
              <JsonDetails value={e.policyDecision} label={`the policy decision of event ${e.seq}`} />
            </dd>
          </>
        ) : null}
      </dl>
    </details>
  );
}

function AuditEventItem({ e, context }: { e: TTicketAuditEvent; context: TContext }) {
  const described: TDescribable = { ...e, actorName: null, ...context };
  const what = describeAuditAction(described);
  return (
    <li className="grid gap-x-4 py-2 first:pt-0 last:pb-0 md:grid-cols-[11rem_minmax(0,1fr)]">
      <time dateTime={e.at.toISOString()} className="text-[12px] tabular-nums text-slate-500 md:pt-px">
        {formatUtc(e.at)}
      </time>
      <div className="min-w-0">
        <p className="text-[13px] wrap-anywhere text-slate-900">
          <span className="font-semibold">{describeAuditActor(described)}</span>
          {what ? ` ${what}.` : `: ${e.action}.`}
        </p>
        <RawEvent e={e} />
      </div>
    </li>
  );
}

/** The ticket's audit events as sentences, oldest first: when, who, what; the recorded event behind
 * each one click away. People are named with one query for the whole list. */
export async function AuditEvents({ events, ticket }: { events: readonly TTicketAuditEvent[]; ticket: { number: number } }) {
  const [names, currencies] = await Promise.all([loadAuditNames({ events }), loadAuditCurrencies({ events })]);
  const context: TContext = { names, currencies, ticket };
  return (
    <Card title={`Audit events (${events.length})`} id="audit-heading" description="Everything recorded about this ticket, oldest first.">
      {events.length ? (
        <ol className="divide-y divide-slate-100">
          {events.map((e) => (
            <AuditEventItem key={e.seq.toString()} e={e} context={context} />
          ))}
        </ol>
      ) : (
        <p className="text-[13px] text-slate-500">Nothing recorded yet.</p>
      )}
    </Card>
  );
}
