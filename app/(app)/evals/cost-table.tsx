// What the agent cost: live runs, shadow passes and evaluations apart, per run, per ticket, per
// resolved ticket, and per day (lib/eval/cost-report.ts).
import { COST_WINDOW_DAYS, type TCostKind, type TCostReport } from "@/lib/eval/cost-report";

const KIND_LABEL: Record<TCostKind, string> = { live: "Live runs", shadow: "Shadow passes", evaluation: "Evaluations" };
const usd = (n: number | null) => (n === null ? "–" : `$${n < 0.01 && n > 0 ? n.toFixed(6) : n.toFixed(2)}`);

export function CostTable({ report }: { report: TCostReport }) {
  return (
    <section aria-labelledby="cost-heading" className="space-y-3">
      <h2 id="cost-heading" className="text-[13px] font-semibold text-slate-900">
        Cost{" "}
        <span className="font-normal text-slate-500">
          (last {COST_WINDOW_DAYS} days, tokens × MODEL_PRICES; the rule planner costs nothing)
        </span>
      </h2>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="w-full min-w-[36rem] text-left text-[12px]">
          <caption className="sr-only">Cost by kind of run</caption>
          <thead className="bg-slate-50 text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Kind
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Runs
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Total
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Per run
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Per ticket
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Per resolved ticket
              </th>
            </tr>
          </thead>
          <tbody>
            {report.lines.map((l) => (
              <tr key={l.kind} data-testid={`cost-${l.kind}`} className="border-t border-slate-100 tabular-nums">
                <th scope="row" className="px-3 py-2 font-medium text-slate-900">
                  {KIND_LABEL[l.kind]}
                </th>
                <td className="px-3 py-2 text-right">
                  {l.runs}
                  {l.unpriced ? <span className="block text-[11px] text-amber-800">{l.unpriced} unpriced</span> : null}
                </td>
                <td className="px-3 py-2 text-right">{usd(l.totalUsd)}</td>
                <td className="px-3 py-2 text-right">{usd(l.perRunUsd)}</td>
                <td className="px-3 py-2 text-right">{l.tickets === null ? "–" : usd(l.perTicketUsd)}</td>
                <td className="px-3 py-2 text-right">{l.resolvedTickets === null ? "–" : usd(l.perResolvedTicketUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="w-full min-w-[28rem] text-left text-[12px]">
          <caption className="px-3 py-2 text-left text-[12px] font-medium text-slate-700">Per day (UTC)</caption>
          <thead className="bg-slate-50 text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-1.5 font-medium">
                Day
              </th>
              {(["live", "shadow", "evaluation"] as const).map((k) => (
                <th key={k} scope="col" className="px-3 py-1.5 text-right font-medium">
                  {KIND_LABEL[k]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.days.map((d) => (
              <tr key={d.day} className="border-t border-slate-100 tabular-nums">
                <th scope="row" className="px-3 py-1 font-normal text-slate-700">
                  {d.day}
                </th>
                <td className="px-3 py-1 text-right">{usd(d.live)}</td>
                <td className="px-3 py-1 text-right">{usd(d.shadow)}</td>
                <td className="px-3 py-1 text-right">{usd(d.evaluation)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
