import type { Metadata } from "next";
import Link from "next/link";
import { Card } from "@/components/card";
import { formatUtc } from "@/components/format";
import { PageHeader } from "@/components/page-header";
import { requireRole } from "@/lib/auth/session";
import { jobCounts, JOB_VIEWS, listJobs, type TJobView } from "@/lib/jobs/list-jobs";
import { RetryJobButton } from "./retry-job-button";

export const metadata: Metadata = { title: "Jobs" };

const VIEW_LABELS: Record<TJobView, string> = { waiting: "Waiting", running: "Running", failed: "Failed" };

export default async function JobsPage({ searchParams }: { searchParams: Promise<{ view?: string }> }) {
  await requireRole("admin");
  const requested = (await searchParams).view;
  const view: TJobView = requested && requested in JOB_VIEWS ? (requested as TJobView) : "failed";
  const [counts, jobs] = await Promise.all([jobCounts(), listJobs({ view })]);
  const countOf = (v: TJobView) =>
    counts.filter((c) => (JOB_VIEWS[v] as readonly string[]).includes(c.state)).reduce((n, c) => n + c.count, 0);

  return (
    <>
      <PageHeader
        title="Jobs"
        description="Work the job queue does after a state change: refund executions, batches of agent runs, and the sweeps. A job that keeps failing is kept here with its error until you retry it."
      />
      <nav aria-label="Job views" className="mb-3 flex flex-wrap gap-2 text-[13px]">
        {(Object.keys(JOB_VIEWS) as TJobView[]).map((v) => (
          <Link
            key={v}
            href={`/admin/jobs?view=${v}`}
            aria-current={v === view ? "page" : undefined}
            className={`rounded-md px-3 py-1 ring-1 ring-inset ${v === view ? "bg-slate-900 text-white ring-slate-900" : "bg-white text-slate-800 ring-slate-300 hover:bg-slate-50"}`}
          >
            {VIEW_LABELS[v]} ({countOf(v)})
          </Link>
        ))}
      </nav>
      <Card bodyClassName="px-4 pb-3" id="jobs-heading" title={`${VIEW_LABELS[view]} jobs`}>
        {jobs.length === 0 ? (
          <p className="py-3 text-[13px] text-slate-600">No {VIEW_LABELS[view].toLowerCase()} jobs.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {jobs.map((job) => (
              <li key={job.id} className="py-3 text-[13px]" aria-label={`Job ${job.id}`}>
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <code className="font-mono font-semibold text-slate-900">{job.queue}</code>
                  <span className="text-slate-600">{job.state}</span>
                  <span className="text-slate-500">
                    attempt {Math.min(job.retryCount + 1, job.retryLimit + 1)} of {job.retryLimit + 1}
                  </span>
                  <span className="text-slate-500">created {formatUtc(job.createdOn, "second")}</span>
                  {job.completedOn ? <span className="text-slate-500">ended {formatUtc(job.completedOn, "second")}</span> : null}
                  {job.state === "failed" ? <RetryJobButton queue={job.queue} jobId={job.id} /> : null}
                </div>
                <p className="mt-1 break-all font-mono text-[12px] text-slate-600">{JSON.stringify(job.data)}</p>
                {job.error ? (
                  <p className="mt-1 break-words rounded bg-rose-50 px-2 py-1 text-[12px] text-rose-900">
                    <span className="font-medium">Error:</span> {job.error}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
