// The request waiting on a ticket: what the agent proposes (or a person lowered it to), what the
// policy asks, what happens on approval, the cited draft, and the decision form – with what this
// person may do with it (decision-view.ts).
import { CitedText } from "@/components/cited-text";
import { formatAge, formatUtc } from "@/components/format";
import { formatMoney } from "@/lib/agent/rule-drafter";
import { ROLE_LABELS } from "@/lib/contracts/roles";
import type { TTicketDetail } from "@/lib/queue/load-ticket-detail";
import type { TPolicySettings } from "@/lib/policy/settings";
import { ApprovalForm } from "./approval-form";
import type { TDecisionView } from "./decision-view";

type TRequest = TTicketDetail["approvals"][number];
type TPassage = { citation: string; chunkId: string; text: string; heading: string };

export function PendingRequest(props: {
  pending: TRequest;
  view: TDecisionView | null;
  passages: TPassage[];
  policy: TPolicySettings;
  ticketId: string;
  mayRunAgent: boolean;
  now: Date;
}) {
  const { pending, view, passages, policy, ticketId, mayRunAgent, now } = props;
  const proposal = pending.proposal;
  const original = pending.editedFrom?.proposal ?? null;
  const firstApproval = pending.decisions[0] ?? null;
  return (
    <div className="space-y-3">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <div className="rounded-md bg-slate-50 p-3">
          {original && proposal ? (
            <dl data-testid="edited-proposal" className="grid grid-cols-2 gap-2">
              <div>
                <dt className="text-[12px] text-slate-500">The agent proposed</dt>
                <dd className="text-[15px] font-semibold text-slate-500 line-through decoration-slate-400">
                  {formatMoney(original.amountCents, original.currency)}
                </dd>
              </div>
              <div>
                <dt className="text-[12px] text-slate-500">Lowered by {pending.editedBy?.name ?? "a person"} to</dt>
                <dd className="text-[15px] font-semibold text-slate-900">{formatMoney(proposal.amountCents, proposal.currency)}</dd>
              </div>
            </dl>
          ) : (
            <>
              <p className="text-[12px] text-slate-500">The agent proposes</p>
              <p className="text-[15px] font-semibold text-slate-900">
                {proposal
                  ? `Refund ${formatMoney(proposal.amountCents, proposal.currency)} on ${proposal.orderId}`
                  : "Send this reply (no refund)"}
              </p>
            </>
          )}
          {proposal ? (
            <p className="mt-1 text-[12px] text-slate-600">
              Policy: <code className="font-mono">{proposal.decision}</code> ({proposal.decisionReasons.join(", ")}) · needs{" "}
              {pending.approvalsRequired > 1
                ? `two different people, each a ${ROLE_LABELS[pending.requiredRole].toLowerCase()} or above`
                : `a ${ROLE_LABELS[pending.requiredRole].toLowerCase()}`}
            </p>
          ) : null}
          {pending.approvalsRequired > 1 ? (
            <p data-testid="approvals-count" className="mt-1 text-[13px] font-medium text-amber-900">
              {pending.decisions.length} of {pending.approvalsRequired} approvals
              {firstApproval
                ? ` · first given by ${firstApproval.decider?.name ?? "?"} (${ROLE_LABELS[firstApproval.deciderRole]}) at ${formatUtc(firstApproval.createdAt, "minute")}`
                : ""}
            </p>
          ) : null}
        </div>
        <div className="rounded-md bg-slate-50 p-3 text-[12px] text-slate-600">
          <p className="text-slate-500">If you approve</p>
          <p className="text-slate-800">
            The reply goes to the outbox
            {proposal
              ? ` and ${formatMoney(proposal.amountCents, proposal.currency)} is refunded to the original payment method: one ledger row`
              : ""}
            .
          </p>
          <p className="mt-1" data-testid="expires">
            {pending.expiresAt > now
              ? `Expires in ${formatAge(now, pending.expiresAt)}, at ${formatUtc(pending.expiresAt, "minute")}`
              : `Expired at ${formatUtc(pending.expiresAt, "minute")}`}{" "}
            · policy {pending.policyVersion}
          </p>
        </div>
      </div>
      <div>
        <h3 className="text-[12px] font-medium text-slate-700">Draft, with its citations</h3>
        <div className="mt-1 rounded-md border border-slate-200 p-3">
          <CitedText text={pending.draft ?? ""} passages={passages} />
        </div>
      </div>
      <ApprovalForm
        key={pending.id}
        approvalId={pending.id}
        ticketId={ticketId}
        digest={pending.digest}
        draft={pending.draft ?? ""}
        canApprove={view?.canApprove ?? false}
        canReject={view?.canReject ?? false}
        maxApproveCents={view?.maxApproveCents ?? null}
        whyNot={view?.whyNot}
        blocked={view?.blocked}
        mayRunAgent={mayRunAgent}
        refund={proposal ? { amountCents: proposal.amountCents, currency: proposal.currency, orderId: proposal.orderId } : null}
        confirmAmount={!!proposal && proposal.amountCents >= policy["policy.specialistThresholdCents"]}
      />
    </div>
  );
}
