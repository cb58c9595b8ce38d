import type { Metadata } from "next";
import { Card } from "@/components/card";
import { PageHeader } from "@/components/page-header";
import { Cell, CardRow, ResponsiveTable, type TColumn } from "@/components/responsive-table";
import { requireRole } from "@/lib/auth/session";
import { loadDialStatus, type TDialCandidate } from "@/lib/eval/dial-status";
import { DialForm } from "./dial-form";
import { RefreshWhileWorking, ShadowPassButton } from "./shadow-pass-button";
import { latestBatchProgress } from "@/lib/agent/batches";

export const metadata: Metadata = { title: "Autonomy" };

/** Tickets a shadow pass takes at most, most recent first. */
const SHADOW_PASS_TICKETS = 50;

const usd = (cents: number) => `${(cents / 100).toFixed(2)} USD`;

function Verdict({ c }: { c: TDialCandidate }) {
  switch (c.verdict) {
    case "current":
      return <span className="font-medium text-indigo-700">The dial is here</span>;
    case "lower":
      return <span className="text-slate-600">Yes: lowering needs no evidence</span>;
    case "allowed":
      return <span className="font-medium text-emerald-700">Yes: {c.agreed.toLocaleString("en-US")} agreeing, none disagreeing</span>;
    case "disputed":
      return (
        <span className="font-medium text-red-700">
          No: {c.disagreed} {c.disagreed === 1 ? "person disagreed" : "people disagreed"}
        </span>
      );
    case "short":
      return (
        <span className="text-amber-800">
          No: {c.missing.toLocaleString("en-US")} more agreeing {c.missing === 1 ? "decision" : "decisions"} needed
        </span>
      );
  }
}

function EvidenceTable({ candidates, required }: { candidates: TDialCandidate[]; required: number }) {
  const right = (label: string): TColumn => ({ label, align: "right" });
  const columns: TColumn[] = [
    "Candidate limit",
    right("Would auto-approve"),
    right("Agreed"),
    right("Disagreed"),
    right("Awaiting a person"),
    "Raise allowed?",
  ];
  const numeric = "tabular-nums md:text-right";
  return (
    <ResponsiveTable caption="Shadow evidence for each candidate limit" columns={columns} wrapHeaders>
      {candidates.map((c) => (
        <CardRow key={c.limitCents} className={`sm:grid-cols-4 ${c.verdict === "current" ? "bg-indigo-50/50" : ""}`}>
          <Cell rowHeader className="col-span-2 font-semibold whitespace-nowrap tabular-nums text-slate-900 sm:col-span-4 md:col-span-1">
            {usd(c.limitCents)}
          </Cell>
          <Cell label="Would auto-approve" className={numeric}>
            {c.wouldAutoApprove.toLocaleString("en-US")}
          </Cell>
          <Cell label="Agreed" className={numeric}>
            <span className="text-emerald-700">{c.agreed.toLocaleString("en-US")}</span>
            <span className="text-slate-400"> / {required.toLocaleString("en-US")}</span>
            <div aria-hidden="true" className="mt-1 h-1 overflow-hidden rounded-full bg-slate-100 md:ml-auto md:w-24">
              <div className="h-full bg-emerald-500" style={{ width: `${Math.min(100, (c.agreed / Math.max(1, required)) * 100)}%` }} />
            </div>
          </Cell>
          <Cell label="Disagreed" className={`${numeric} ${c.disagreed ? "font-medium text-red-700" : ""}`}>
            {c.disagreed.toLocaleString("en-US")}
          </Cell>
          <Cell label="Awaiting a person" className={`${numeric} text-slate-600`}>
            {c.awaiting.toLocaleString("en-US")}
          </Cell>
          <Cell label="Raise allowed?" className="col-span-2 sm:col-span-4 md:col-span-1">
            <Verdict c={c} />
          </Cell>
        </CardRow>
      ))}
    </ResponsiveTable>
  );
}

export default async function AutonomyPage() {
  await requireRole("autonomy");
  const [status, pass] = await Promise.all([loadDialStatus(), latestBatchProgress("shadow")]);
  const positions = [0, ...status.candidates.map((c) => c.limitCents)].map((cents) => ({
    cents,
    note: [cents === 0 ? "off" : null, cents === status.limitCents ? "current" : null].filter(Boolean).join(", "),
  }));

  return (
    <div className="space-y-5">
      <PageHeader
        title="Autonomy"
        description="How large a refund the agent may approve on its own, and the shadow evidence for raising it."
      />

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <Card id="dial-heading" title="The dial" bodyClassName="grid grid-cols-1 gap-4 px-4 py-3 sm:grid-cols-2">
            <div>
              <p className="text-[12px] text-slate-500">Auto-approve limit</p>
              <p data-testid="dial-limit" className="text-2xl font-semibold tracking-tight text-slate-900 tabular-nums">
                {usd(status.limitCents)}
              </p>
              <p className="mt-1 text-[12px] text-slate-600">
                {status.limitCents === 0
                  ? "Every refund needs a person."
                  : `Refunds up to ${usd(status.limitCents)} may be approved without a person, under the daily cap and never on flagged accounts.`}
              </p>
              <p className="mt-2 text-[12px] text-slate-600">
                Raising it needs <strong className="text-slate-900">{status.requiredAgreements.toLocaleString("en-US")}</strong> agreeing
                shadow decisions at the new limit and none disagreeing. Lowering it needs no evidence. Every change is audited.
              </p>
              <p className="mt-1 text-[11px] text-slate-400">
                Policy <code className="font-mono">{status.policyVersion}</code>
              </p>
            </div>
            <DialForm currentCents={status.limitCents} positions={positions} />
          </Card>
        </div>

        <Card id="shadow-heading" title="Shadow pass" bodyClassName="space-y-2 px-4 py-3">
          <p className="text-[12px] text-slate-600">
            Runs the agent in simulate mode over the {SHADOW_PASS_TICKETS} most recent tickets waiting for a refund decision and records
            what the policy would auto-approve at each candidate limit. When a person then decides, their decision counts as agreement or
            disagreement. Nothing is refunded.
          </p>
          <ShadowPassButton limit={SHADOW_PASS_TICKETS} />
          {pass ? (
            <p data-testid="shadow-progress" className="text-[12px] text-slate-600">
              {pass.finished ? "Last pass finished" : "Pass in progress"}: {pass.done + pass.refused + pass.failed} of {pass.total} tickets
              run
              {pass.failed ? `, ${pass.failed} failed (see Jobs)` : ""}.
            </p>
          ) : null}
          <RefreshWhileWorking working={!!pass && !pass.finished} />
        </Card>
      </div>

      <section aria-labelledby="evidence-heading" className="space-y-2">
        <div>
          <h2 id="evidence-heading" className="text-[13px] font-semibold text-slate-900">
            Evidence per candidate limit
          </h2>
          <p className="text-[12px] text-slate-500">
            {status.shadowedProposals.toLocaleString("en-US")} refund {status.shadowedProposals === 1 ? "proposal" : "proposals"} shadowed
            so far. “Would auto-approve” counts the shadow decisions where the policy would have approved the refund on its own at that
            limit; a person approving the same refund agrees, rejecting it disagrees.
          </p>
        </div>
        <EvidenceTable candidates={status.candidates} required={status.requiredAgreements} />
      </section>
    </div>
  );
}
