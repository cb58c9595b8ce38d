import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/empty-state";
import { HoldReason, ReleaseBadge } from "@/components/eval-decision";
import { formatUtc } from "@/components/format";
import { PageHeader } from "@/components/page-header";
import { Cell, CardRow, ResponsiveTable, type TColumn } from "@/components/responsive-table";
import { hrefWith, Pager } from "@/components/pager";
import { requireRole } from "@/lib/auth/session";
import { decodeCursor } from "@/lib/db/keyset";
import { DASHBOARD_MAX_AGE_MS } from "@/lib/eval/dashboard-stats";
import { listEvalRuns, listReleaseDecisions, type TEvalRunRow } from "@/lib/eval/list-eval-runs";
import { recentDashboardStats } from "@/lib/eval/read-dashboard-stats";
import { evaluationDatasets, listEvalRequests } from "@/lib/eval/agent-evaluation";
import { loadTeamDataset, TEAM_DATASET } from "@/lib/eval/team-dataset";
import type { TDataset } from "@/lib/eval/episode";
import { EvalCharts } from "./charts";
import { CostTable } from "./cost-table";
import { EvaluationRequests } from "./evaluation-requests";

export const metadata: Metadata = { title: "Evaluations" };

type TSearchParams = Record<string, string | string[] | undefined>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** "sha256:0f3a…" → "0f3a9c1d" (the full hash in a tooltip). */
const shortHash = (hash: string) => hash.replace(/^sha256:/, "").slice(0, 8);
const shortCommit = (commit: string) => (/^[0-9a-f]{40}$/.test(commit) ? commit.slice(0, 7) : commit);

function RunsTable({ rows }: { rows: TEvalRunRow[] }) {
  const columns: TColumn[] = [
    "Run",
    "Agent",
    "Dataset",
    "Grader",
    "Model",
    "Commit",
    { label: "Trials", align: "right" },
    { label: "Rows", align: "right" },
    "Release decision",
  ];
  return (
    <ResponsiveTable caption="Eval runs, newest first" columns={columns}>
      {rows.map((r) => (
        <CardRow key={r.id} className="align-top hover:bg-slate-50">
          <Cell label="Run" className="col-span-2 whitespace-nowrap md:col-span-1">
            <Link href={`/evals/${r.id}`} className="font-medium text-indigo-700 tabular-nums hover:underline">
              <time dateTime={r.createdAt.toISOString()}>{formatUtc(r.createdAt, "minute")}</time>
            </Link>
            {r.createdBy ? <span className="block text-[11px] text-slate-500">by {r.createdBy}</span> : null}
          </Cell>
          <Cell label="Agent">
            <code className="font-mono text-[12px] break-all">{r.agentVersion}</code>
          </Cell>
          <Cell label="Dataset">
            <code className="font-mono text-[12px] break-all">{r.datasetVersion}</code>
            <code className="block font-mono text-[11px] text-slate-500" title={r.datasetHash}>
              {shortHash(r.datasetHash)}
            </code>
          </Cell>
          <Cell label="Grader">
            <code className="font-mono text-[12px] break-all">{r.graderVersion}</code>
          </Cell>
          <Cell label="Model" className="text-[12px] text-slate-700">
            {r.modelId}
          </Cell>
          <Cell label="Commit">
            <code className="font-mono text-[12px]" title={r.commit}>
              {shortCommit(r.commit)}
            </code>
          </Cell>
          <Cell label="Trials" className="tabular-nums md:text-right">
            {r.trials}
          </Cell>
          <Cell label="Rows" className="whitespace-nowrap tabular-nums md:text-right">
            <span className="text-emerald-700">{r.passed.toLocaleString("en-US")} passed</span>
            <span className={`block ${r.failed ? "font-medium text-red-700" : "text-slate-500"}`}>
              {r.failed.toLocaleString("en-US")} failed
            </span>
          </Cell>
          <Cell label="Release decision" className="col-span-2 min-w-0 md:col-span-1 md:max-w-80">
            <ReleaseBadge outcome={r.decision?.outcome} />
            {r.decision?.reason ? (
              <div className="mt-1 text-[12px] text-slate-600">
                <HoldReason reason={r.decision.reason} />
              </div>
            ) : null}
          </Cell>
        </CardRow>
      ))}
    </ResponsiveTable>
  );
}

/** The files of EVAL_DATASET_DIR, and the team dataset once it has a promoted episode (with its pin). */
function datasetOptions(team: TDataset) {
  const options = evaluationDatasets().map((d) => ({ value: d, label: d }));
  if (team.episodes.length)
    options.push({ value: TEAM_DATASET, label: `Team: ${team.episodes.length} promoted episode(s), ${team.hash.slice(0, 19)}…` });
  return options;
}

export default async function EvaluationsPage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  await requireRole("evals");
  const params = await searchParams;
  const cursorToken = first(params.cursor);
  const cursor = cursorToken ? (decodeCursor(cursorToken) ?? undefined) : undefined;
  // The charts' and the cost table's numbers are shared between views for up to DASHBOARD_MAX_AGE_MS (the page says so);
  // the runs and decisions below are read on every view.
  const [runs, decisions, stats, requests, team] = await Promise.all([
    listEvalRuns({ cursor }),
    listReleaseDecisions(),
    recentDashboardStats(),
    listEvalRequests(),
    loadTeamDataset(),
  ]);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Evaluations"
        description="Graded episode runs, the release decision on each receipt, and how the agent behaves on real tickets."
        actions={
          <Link href="/evals/daily" className="text-[13px] font-medium text-indigo-700 hover:underline">
            Daily series and alerts
          </Link>
        }
      />

      <EvaluationRequests datasets={datasetOptions(team.dataset)} requests={requests} />

      <div className="space-y-2">
        <EvalCharts stats={{ passRates: stats.passRates, budget: stats.budget, handoffs: stats.handoffs }} />
        <p className="text-[12px] text-slate-500">
          Charts and costs as of <time dateTime={stats.asOf.toISOString()}>{formatUtc(stats.asOf)}</time>: their numbers are read at most
          once every {DASHBOARD_MAX_AGE_MS / 1000} seconds, so they may be up to that much behind.
        </p>
      </div>

      <CostTable report={stats.cost} />

      <section aria-labelledby="runs-heading">
        <h2 id="runs-heading" className="mb-2 flex flex-wrap items-baseline gap-x-3 text-[13px] font-semibold text-slate-900">
          <span>
            Eval runs <span className="font-normal text-slate-500">({runs.total.toLocaleString("en-US")}, newest first)</span>
          </span>
          {runs.total > 1 ? (
            <Link href="/evals/compare" className="text-[12px] font-medium text-indigo-700 hover:underline">
              Compare two runs
            </Link>
          ) : null}
        </h2>
        {runs.rows.length ? (
          <>
            <RunsTable rows={runs.rows} />
            {runs.newerCursor || runs.olderCursor ? (
              <Pager
                label="Eval run pages"
                previous={runs.newerCursor ? hrefWith("/evals", { cursor: runs.newerCursor }) : null}
                next={runs.olderCursor ? hrefWith("/evals", { cursor: runs.olderCursor }) : null}
              />
            ) : null}
          </>
        ) : cursor ? (
          <EmptyState title="No runs on this page">
            <Link href="/evals" className="font-medium text-indigo-700 hover:underline">
              Back to the newest runs
            </Link>
          </EmptyState>
        ) : (
          <EmptyState title="No eval runs yet">
            Grade the dataset with <code className="font-mono">npm run eval -- --dataset eval/episodes.jsonl</code>; each run is stored here
            with its release decision.
          </EmptyState>
        )}
      </section>

      <section aria-labelledby="decisions-heading">
        <h2 id="decisions-heading" className="mb-2 text-[13px] font-semibold text-slate-900">
          Release decision history{" "}
          <span className="font-normal text-slate-500">
            {decisions.total > decisions.rows.length
              ? `(latest ${decisions.rows.length} of ${decisions.total.toLocaleString("en-US")})`
              : `(${decisions.total})`}
          </span>
        </h2>
        {decisions.rows.length ? (
          <ol className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {decisions.rows.map((d) => (
              <li key={d.id} className="flex flex-col gap-1 px-4 py-2.5 text-[13px] md:flex-row md:items-start md:gap-4">
                <time dateTime={d.createdAt.toISOString()} className="shrink-0 text-[12px] text-slate-500 tabular-nums md:w-36 md:pt-0.5">
                  {formatUtc(d.createdAt, "minute")}
                </time>
                <div className="shrink-0 md:w-64">
                  <ReleaseBadge outcome={d.outcome} />
                </div>
                <div className="min-w-0 flex-1 text-[12px] text-slate-700">
                  <HoldReason reason={d.reason} />
                </div>
                <div className="shrink-0 text-[12px] text-slate-500 md:text-right">
                  <Link href={`/evals/${d.evalRunId}`} className="font-mono text-indigo-700 hover:underline">
                    {d.agentVersion} @ {shortCommit(d.commit)}
                  </Link>
                  <span className="block">{d.decidedBy ? `by ${d.decidedBy}` : "by the eval command"}</span>
                </div>
              </li>
            ))}
          </ol>
        ) : (
          <EmptyState title="No release decisions yet">Every stored eval run carries one.</EmptyState>
        )}
      </section>
    </div>
  );
}
