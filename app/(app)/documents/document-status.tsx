import type { DocumentStatus } from "@/generated/prisma/enums";

const STATUS = {
  draft: { words: "Draft", tone: "bg-amber-50 text-amber-800 ring-amber-200" },
  in_review: { words: "In review", tone: "bg-sky-50 text-sky-800 ring-sky-200" },
  published: { words: "Published", tone: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  retired: { words: "Retired", tone: "bg-slate-100 text-slate-700 ring-slate-200" },
} satisfies Record<DocumentStatus, { words: string; tone: string }>;

export const DOCUMENT_STATUS_WORDS = Object.fromEntries(Object.entries(STATUS).map(([k, v]) => [k, v.words])) as Record<
  DocumentStatus,
  string
>;

/** A version's state in words with its code beside it; a published version not yet in effect says when it will be. */
export function DocumentStatusBadge({ status, scheduledFor }: { status: DocumentStatus; scheduledFor?: Date | null }) {
  const { words, tone } = STATUS[status];
  return (
    <span
      className={`inline-flex max-w-full flex-wrap items-center gap-x-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone}`}
    >
      {scheduledFor ? "Scheduled" : words}
      <code className="font-mono text-[11px] font-normal">{status}</code>
    </span>
  );
}

/** When a published version takes effect, if that is still to come; null for every other version. */
export function scheduledFor(v: { status: DocumentStatus; effectiveAt: Date | null }, now: Date): Date | null {
  return v.status === "published" && v.effectiveAt && v.effectiveAt > now ? v.effectiveAt : null;
}

/** The first 12 hex digits of a content hash: enough to tell versions apart at a glance; the whole hash in its title. */
export function ShortHash({ hash }: { hash: string }) {
  return (
    <code className="font-mono text-[12px] text-slate-600" title={hash}>
      {hash.slice(0, 12)}
    </code>
  );
}
