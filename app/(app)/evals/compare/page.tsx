import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/components/breadcrumbs";
import { HoldReason, ReleaseBadge } from "@/components/eval-decision";
import { PathDiff } from "@/components/eval-path-diff";
import { formatUtc } from "@/components/format";
import { requireRole } from "@/lib/auth/session";
import type { TEpisodeChange, TEpisodeComparison, TSideOutcome } from "@/lib/eval/compare-runs";
import { listEvalRuns, type TEvalRunDetail } from "@/lib/eval/list-eval-runs";
import { loadRunComparison } from "@/lib/eval/load-run-comparison";

export const metadata: Metadata = { title: "Compare eval runs" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type TSearchParams = Record<string, string | string[] | undefined>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const CHANGE_LABEL: Record<TEpisodeChange, string> = {
  broken: "Broken",
  fixed: "Fixed",
  unchanged: "Unchanged",
  only_a: "Only in A",
  only_b: "Only in B",
};
const CHANGE_TONE: Record<TEpisodeChange, string> = {
  broken: "bg-red-100 text-red-800 ring-red-200",
  fixed: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  unchanged: "bg-slate-100 text-slate-700 ring-slate-200",
  only_a: "bg-amber-50 text-amber-900 ring-amber-200",
  only_b: "bg-amber-50 text-amber-900 ring-amber-200",
};

async function PickRuns({ a, b }: { a?: string; b?: string }) {
  const runs = await listEvalRuns({ pageSize: 50 });
  const label = (r: (typeof runs.rows)[number]) =>
    `${formatUtc(r.createdAt, "minute")} · ${r.agentVersion} · ${r.passed} passed, ${r.failed} failed`;
  return (
    <form
      method="get"
      action="/evals/compare"
      aria-label="Choose two runs"
      className="grid grid-cols-1 gap-3 rounded-lg border border-slate-200 bg-white p-4 md:grid-cols-[1fr_1fr_auto] md:items-end"
    >
      {(["a", "b"] as const).map((side) => (
        <label key={side} className="block text-[12px] font-medium text-slate-700">
          Run {side.toUpperCase()} {side === "a" ? "(before)" : "(after)"}
          <select
            name={side}
            defaultValue={side === "a" ? (a ?? runs.rows[1]?.id) : (b ?? runs.rows[0]?.id)}
            className="mt-1 block h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-[13px] font-normal"
          >
            {runs.rows.map((r) => (
              <option key={r.id} value={r.id}>
                {label(r)}
              </option>
            ))}
          </select>
        </label>
      ))}
      <button
        type="submit"
        className="inline-flex h-8 items-center justify-center rounded-md bg-indigo-600 px-3 text-[13px] font-medium text-white hover:bg-indigo-700"
      >
        Compare
      </button>
    </form>
  );
}

function Side({ name, run }: { name: string; run: TEvalRunDetail }) {
  const decision = run.decisions[0];
  return (
    <section aria-label={`Run ${name}`} className="min-w-0 space-y-1 rounded-lg border border-slate-200 bg-white p-4 text-[13px]">
      <h2 className="font-semibold text-slate-900">
        Run {name}:{" "}
        <Link href={`/evals/${run.id}`} className="text-indigo-700 hover:underline">
          <time dateTime={run.createdAt.toISOString()}>{formatUtc(run.createdAt, "minute")}</time>
        </Link>
      </h2>
      <p className="break-all text-slate-700">
        Agent <code className="font-mono text-[12px]">{run.agentVersion}</code>, dataset{" "}
        <code className="font-mono text-[12px]">{run.datasetVersion}</code>, model {run.modelId}, {run.trials} trial
        {run.trials === 1 ? "" : "s"}
      </p>
      <p className="text-slate-700">
        {run.episodes - run.failedEpisodes} of {run.episodes} episodes passed
      </p>
      <div data-testid={`decision-${name.toLowerCase()}`}>
        <ReleaseBadge outcome={decision?.outcome} />
        {decision?.reason ? (
          <div className="mt-1 text-[12px] text-slate-600">
            <HoldReason reason={decision.reason} />
          </div>
        ) : null}
      </div>
    </section>
  );
}

const outcomeWords = (s: TSideOutcome | null) =>
  s ? `${s.passed ? "pass" : "fail"} · ${s.status ?? "did not run"}${s.reason ? ` (${s.reason})` : ""}` : "not graded";

function ChangedEpisode({ e }: { e: TEpisodeComparison }) {
  return (
    <article
      data-testid="changed-episode"
      data-change={e.change}
      aria-labelledby={`cmp-${e.episodeId}`}
      className="rounded-lg border border-slate-200 bg-white"
    >
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-4 py-2">
        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${CHANGE_TONE[e.change]}`}>
          {CHANGE_LABEL[e.change]}
        </span>
        <h3 id={`cmp-${e.episodeId}`} className="min-w-0 font-mono text-[13px] font-semibold break-all text-slate-900">
          {e.episodeId}
        </h3>
      </header>
      <div className="space-y-2 px-4 py-3 text-[12px]">
        <p className="text-slate-700">
          <span className="font-medium">A:</span> {outcomeWords(e.a)}
        </p>
        <p className="text-slate-700">
          <span className="font-medium">B:</span> {outcomeWords(e.b)}
        </p>
        {e.change === "broken" && e.b?.explanation ? (
          <p className="break-words text-red-800">
            <span className="font-medium">Grader on B: </span>
            {e.b.explanation}
          </p>
        ) : null}
        {e.pathDiff ? (
          <PathDiff
            diff={e.pathDiff}
            caption={`${e.episodeId}: run A's and run B's action paths, step by step`}
            labels={["Run A", "Run B"]}
          />
        ) : null}
      </div>
    </article>
  );
}

export default async function CompareRunsPage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  await requireRole("evals");
  const query = await searchParams;
  const [a, b] = [first(query.a), first(query.b)];
  const chosen = a && b && UUID.test(a) && UUID.test(b);
  const loaded = chosen ? await loadRunComparison({ a, b }) : null;
  if (chosen && !loaded) notFound();
  const changed = loaded?.comparison.episodes.filter((e) => e.change !== "unchanged") ?? [];
  const counts = loaded?.comparison.counts;
  return (
    <div className="space-y-4">
      <Breadcrumbs trail={[{ href: "/evals", label: "Evaluations" }]} current="Compare" />
      <h1 className="text-lg font-semibold text-slate-900">Compare two eval runs</h1>
      <PickRuns a={a} b={b} />
      {loaded && counts ? (
        <>
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
            <Side name="A" run={loaded.a} />
            <Side name="B" run={loaded.b} />
          </div>
          <p role="status" data-testid="comparison-counts" className="text-[13px] text-slate-800">
            {counts.fixed} fixed, {counts.broken} broken, {counts.unchanged} unchanged
            {counts.only_a || counts.only_b ? `, ${counts.only_a} only in A, ${counts.only_b} only in B` : ""}.
          </p>
          {changed.length ? (
            changed.map((e) => <ChangedEpisode key={e.episodeId} e={e} />)
          ) : (
            <p className="text-[13px] text-slate-600">No episode changed between the two runs.</p>
          )}
        </>
      ) : null}
    </div>
  );
}
