import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Card, Fact } from "@/components/card";
import { EmptyState } from "@/components/empty-state";
import { HoldReason, ReleaseBadge } from "@/components/eval-decision";
import { formatUtc } from "@/components/format";
import { hrefWith, Pager } from "@/components/pager";
import { requireRole } from "@/lib/auth/session";
import { EPISODE_PAGE_SIZE, listEpisodeResults, loadEvalRun, type TEpisodeFilter, type TEvalRunDetail } from "@/lib/eval/list-eval-runs";
import { FailedEpisode, PassedEpisode } from "./episode-result";
import { Breadcrumbs } from "@/components/breadcrumbs";

export const metadata: Metadata = { title: "Eval run" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILTERS: readonly TEpisodeFilter[] = ["all", "failed", "passed"];

type TSearchParams = Record<string, string | string[] | undefined>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function EvalRunPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<TSearchParams>;
}) {
  await requireRole("evals");
  const { id } = await params;
  if (!UUID.test(id)) notFound();
  const run = await loadEvalRun({ id });
  if (!run) notFound();

  const query = await searchParams;
  const requested = first(query.show);
  const filter: TEpisodeFilter = FILTERS.find((f) => f === requested) ?? "all";
  const pageParam = Number(first(query.page) ?? "1");
  const episodes = await listEpisodeResults({ evalRunId: run.id, filter, page: Number.isFinite(pageParam) ? pageParam : 1 });
  const counts: Record<TEpisodeFilter, number> = { all: run.passed + run.failed, failed: run.failed, passed: run.passed };

  return (
    <div className="space-y-4">
      <RunHeading run={run} rows={counts.all} />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <ReceiptCard run={run} rows={counts.all} />
        <DecisionCard decisions={run.decisions} />
      </div>
      <EpisodeRows path={`/evals/${run.id}`} filter={filter} counts={counts} episodes={episodes} showTrial={run.trials > 1} />
    </div>
  );
}

/** What was graded, when, and how it went, in one sentence. */
function RunHeading({ run, rows }: { run: TEvalRunDetail; rows: number }) {
  return (
    <div className="min-w-0">
      <Breadcrumbs trail={[{ href: "/evals", label: "Evaluations" }]} current="Run" />
      <h1 className="text-lg font-semibold tracking-tight text-slate-900">
        Eval run of <time dateTime={run.createdAt.toISOString()}>{formatUtc(run.createdAt, "minute")}</time>
      </h1>
      <p className="mt-0.5 text-[13px] text-slate-500">
        <code className="font-mono">{run.agentVersion}</code> graded on <code className="font-mono">{run.datasetVersion}</code>:{" "}
        {run.passed.toLocaleString("en-US")} of {rows.toLocaleString("en-US")} rows passed
        {run.failedEpisodes ? `, ${run.failedEpisodes} of ${run.episodes} episodes failed` : ""}.
      </p>
    </div>
  );
}

/** The receipt's identity: what the release gate compares with the pins. */
function ReceiptCard({ run, rows }: { run: TEvalRunDetail; rows: number }) {
  return (
    <Card id="receipt-heading" title="Receipt" bodyClassName="px-4 py-2">
      <dl className="divide-y divide-slate-100">
        <Fact label="Agent version">
          <code className="font-mono">{run.agentVersion}</code>
        </Fact>
        <Fact label="Dataset">
          <code className="font-mono">{run.datasetVersion}</code>
        </Fact>
        <Fact label="Dataset hash">
          <code className="font-mono text-[12px]">{run.datasetHash}</code>
        </Fact>
        <Fact label="Grader">
          <code className="font-mono">{run.graderVersion}</code>
        </Fact>
        <Fact label="Model">{run.modelId}</Fact>
        <Fact label="Commit">
          <code className="font-mono text-[12px]">{run.commit}</code>
        </Fact>
        <Fact label="Trials">{run.trials}</Fact>
        <Fact label="Rows">
          {rows.toLocaleString("en-US")} ({run.episodes.toLocaleString("en-US")} episodes × {run.trials})
        </Fact>
        <Fact label="Graded">
          {formatUtc(run.createdAt)}
          {run.createdBy ? ` by ${run.createdBy}` : ""}
        </Fact>
      </dl>
    </Card>
  );
}

/** The latest release decision on the run, and the earlier ones beneath it. */
function DecisionCard({ decisions }: { decisions: TEvalRunDetail["decisions"] }) {
  const decision = decisions[0];
  return (
    <Card id="decision-heading" title="Release decision" bodyClassName="space-y-2 px-4 py-3 text-[13px]">
      {decision ? (
        <>
          <ReleaseBadge outcome={decision.outcome} />
          <div className="text-slate-700">
            <HoldReason reason={decision.reason} />
          </div>
          <p className="text-[12px] text-slate-500">
            Decided {formatUtc(decision.createdAt)} {decision.decidedBy ? `by ${decision.decidedBy}` : "by the eval command"}. A run is
            eligible for shadow only when its receipt matches the pinned agent, dataset and grader, every episode appears exactly once per
            trial, nothing extra is padded in, and every row passed.
          </p>
          {decisions.length > 1 ? (
            <ol className="mt-2 space-y-1 border-t border-slate-100 pt-2 text-[12px] text-slate-600">
              {decisions.slice(1).map((d) => (
                <li key={d.id}>
                  Earlier: {formatUtc(d.createdAt, "minute")} · <code className="font-mono">{d.outcome}</code>
                  {d.reason ? ` (${d.reason.slice(0, 120)}${d.reason.length > 120 ? "…" : ""})` : ""}
                </li>
              ))}
            </ol>
          ) : null}
        </>
      ) : (
        <p className="text-slate-500">No release decision is stored for this run.</p>
      )}
    </Card>
  );
}

/** One page of the run's episode rows under the filter, failed first, with the filter's tabs and the pager. */
function EpisodeRows({
  path,
  filter,
  counts,
  episodes,
  showTrial,
}: {
  path: string;
  filter: TEpisodeFilter;
  counts: Record<TEpisodeFilter, number>;
  episodes: Awaited<ReturnType<typeof listEpisodeResults>>;
  showTrial: boolean;
}) {
  const pageHref = (page: number) => hrefWith(path, { show: filter === "all" ? null : filter, page: page > 1 ? String(page) : null });
  const firstRow = (episodes.page - 1) * EPISODE_PAGE_SIZE + 1;
  return (
    <section aria-labelledby="episodes-heading" className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h2 id="episodes-heading" className="text-[13px] font-semibold text-slate-900">
          Episode rows <span className="font-normal text-slate-500">(failed first)</span>
        </h2>
        <nav aria-label="Which rows" className="flex gap-1 rounded-md bg-slate-100 p-0.5 text-[12px]">
          {FILTERS.map((f) => (
            <Link
              key={f}
              href={hrefWith(path, { show: f === "all" ? null : f })}
              aria-current={f === filter ? "page" : undefined}
              className={`rounded px-2.5 py-1 font-medium ${f === filter ? "bg-white text-slate-900 shadow-xs" : "text-slate-600 hover:text-slate-900"}`}
            >
              {f === "all" ? "All" : f === "failed" ? "Failed" : "Passed"}{" "}
              <span className="tabular-nums text-slate-500">{counts[f].toLocaleString("en-US")}</span>
            </Link>
          ))}
        </nav>
      </div>

      {episodes.rows.length === 0 ? (
        <EmptyState title={filter === "failed" ? "No failed rows" : filter === "passed" ? "No passing rows" : "This run has no rows"}>
          {filter === "failed" ? "Every episode passed in every trial." : null}
        </EmptyState>
      ) : (
        <>
          <p className="text-[12px] text-slate-500">
            Rows {firstRow.toLocaleString("en-US")}–{(firstRow + episodes.rows.length - 1).toLocaleString("en-US")} of{" "}
            {episodes.total.toLocaleString("en-US")}. Passing rows are folded: open one to see its paths.
          </p>
          <div className="space-y-2">
            {episodes.rows.map((row) =>
              row.passed ? (
                <PassedEpisode key={row.id} row={row} showTrial={showTrial} />
              ) : (
                <FailedEpisode key={row.id} row={row} showTrial={showTrial} />
              ),
            )}
          </div>
          {episodes.pageCount > 1 ? (
            <Pager
              label="Episode row pages"
              previous={episodes.page > 1 ? pageHref(episodes.page - 1) : null}
              next={episodes.page < episodes.pageCount ? pageHref(episodes.page + 1) : null}
              previousText="Previous"
              nextText="Next"
            >
              Page {episodes.page} of {episodes.pageCount}
            </Pager>
          ) : null}
        </>
      )}
    </section>
  );
}
