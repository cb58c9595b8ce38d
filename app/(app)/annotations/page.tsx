import type { Metadata } from "next";
import Link from "next/link";
import { Card } from "@/components/card";
import { EmptyState } from "@/components/empty-state";
import { formatUtc } from "@/components/format";
import { JsonDetails } from "@/components/json-details";
import { PageHeader } from "@/components/page-header";
import { Cell, CardRow, ResponsiveTable } from "@/components/responsive-table";
import { requireRole } from "@/lib/auth/session";
import { ANNOTATION_REASON_LABELS, type TAnnotationReason, type TAnnotationSource } from "@/lib/contracts/reason-codes";
import { mayUse } from "@/lib/contracts/roles";
import { listAnnotationQueue, type TAnnotationQueueRow } from "@/lib/eval/list-annotation-queue";
import { listEpisodeCandidates, type TCandidateRow } from "@/lib/eval/list-episode-candidates";
import { loadPolicySettings } from "@/lib/policy/settings";
import { listAssignees } from "@/lib/queue/list-assignees";
import { AssignRunForm, ReviewCandidateForm } from "./annotation-forms";

export const metadata: Metadata = { title: "Annotations" };

const SOURCE_WORDS = {
  rejected: "Rejected by a person",
  edited: "Edited by a person",
  sampled: "Approved (sampled)",
} as const satisfies Record<TAnnotationSource, string>;

const STATUS_WORDS: Record<string, string> = { candidate: "Waiting for a lead", promoted: "In the team dataset", discarded: "Discarded" };

export default async function AnnotationsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireRole("annotate");
  const mineOnly = (await searchParams).mine === "1";
  const leads = user.role === "LEAD" || user.role === "ADMIN";
  const [queue, candidates, settings, people] = await Promise.all([
    listAnnotationQueue({ assigneeId: mineOnly ? user.id : undefined }),
    listEpisodeCandidates(),
    loadPolicySettings(),
    leads ? listAssignees() : null,
  ]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Annotations"
        description={`People's judgements of agent runs: every rejected or edited run waits here, with ${settings["annotation.approvalSharePercent"]}% of approved ones. Judge a run on its ticket; save it as an episode; a lead promotes it into the team dataset that /evals can grade.`}
      />
      <Card
        id="queue-heading"
        title={`Runs waiting for a judgement (${queue.length})`}
        actions={
          <Link
            href={mineOnly ? "/annotations" : "/annotations?mine=1"}
            className="text-[13px] font-medium text-indigo-700 hover:underline"
          >
            {mineOnly ? "Show all" : "Show mine"}
          </Link>
        }
        bodyClassName=""
      >
        {queue.length ? <QueueTable rows={queue} me={user.id} people={people} /> : <EmptyState title="Nothing waits for a judgement." />}
      </Card>
      <Card
        id="candidates-heading"
        title="Candidate episodes"
        description={
          candidates.team.episodes
            ? `The team dataset: ${candidates.team.episodes} promoted episode(s), pinned as ${candidates.team.hash.slice(0, 19)}…`
            : "The team dataset is empty: a lead promotes a candidate into it."
        }
        bodyClassName=""
      >
        {candidates.rows.length ? (
          <CandidateTable rows={candidates.rows} mayReview={mayUse(user.role, "evals")} />
        ) : (
          <EmptyState title="No episode saved yet.">Judge a run on its ticket, then Save as episode.</EmptyState>
        )}
      </Card>
    </div>
  );
}

function QueueTable({ rows, me, people }: { rows: TAnnotationQueueRow[]; me: string; people: { id: string; name: string }[] | null }) {
  return (
    <ResponsiveTable caption="Runs waiting for a judgement" columns={["Ticket", "Why", "Decided", "Assignee", ""]}>
      {rows.map((r) => (
        <CardRow key={r.runId}>
          <Cell rowHeader className="col-span-2">
            <Link href={`/tickets/${r.ticketId}#run-${r.runId}`} className="font-medium text-indigo-700 hover:underline">
              #{r.ticketNumber} {r.subject}
            </Link>
          </Cell>
          <Cell label="Why">
            {SOURCE_WORDS[r.source]} <code className="text-[11px] text-slate-500">{r.source}</code>
          </Cell>
          <Cell label="Decided">
            <time dateTime={r.decidedAt.toISOString()}>{formatUtc(r.decidedAt)}</time>
          </Cell>
          <Cell label="Assignee">{r.assignee?.label ?? <span className="text-slate-500">Unassigned</span>}</Cell>
          <Cell className="col-span-2">
            <AssignRunForm runId={r.runId} assigneeId={r.assignee?.id ?? null} me={me} people={people} />
          </Cell>
        </CardRow>
      ))}
    </ResponsiveTable>
  );
}

function CandidateTable({ rows, mayReview }: { rows: TCandidateRow[]; mayReview: boolean }) {
  return (
    <ResponsiveTable caption="Candidate episodes" columns={["Episode", "Judgement", "Correction", "Episode JSON", "State"]}>
      {rows.map((c) => (
        <CardRow key={c.id}>
          <Cell rowHeader className="col-span-2">
            <code className="font-mono text-[12px] break-all">{c.episodeId}</code>
            <Link href={`/tickets/${c.ticketId}#run-${c.runId}`} className="ml-2 text-[12px] text-indigo-700 hover:underline">
              run
            </Link>
          </Cell>
          <Cell label="Judgement">
            {c.verdict === "correct"
              ? "Correct"
              : `Wrong: ${c.reason ? (ANNOTATION_REASON_LABELS[c.reason as TAnnotationReason] ?? c.reason) : "?"}`}
          </Cell>
          <Cell label="Correction">
            {c.correctedReply ? <span className="whitespace-pre-wrap wrap-anywhere">{c.correctedReply}</span> : null}
            {c.correctedAmountCents !== null ? <span className="block">{(c.correctedAmountCents / 100).toFixed(2)} USD</span> : null}
            {!c.correctedReply && c.correctedAmountCents === null ? <span className="text-slate-400">–</span> : null}
          </Cell>
          <Cell label="Episode JSON" className="col-span-2 md:max-w-xs">
            <JsonDetails value={c.episode} label={`episode ${c.episodeId}`} max={48} />
          </Cell>
          <Cell label="State" className="col-span-2">
            {c.status === "candidate" && mayReview ? (
              <ReviewCandidateForm candidateId={c.id} episodeId={c.episodeId} />
            ) : (
              <span data-testid="candidate-state">{STATUS_WORDS[c.status] ?? c.status}</span>
            )}
          </Cell>
        </CardRow>
      ))}
    </ResponsiveTable>
  );
}
