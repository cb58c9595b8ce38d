import Link from "next/link";
import { formatUtc } from "@/components/format";
import { QUEUE_VIEWS, VIEW_LABELS, type TQueueView } from "@/lib/queue/queue-views";

/** The work views with how many tickets each holds (counts at most 10 seconds old, shared). */
export function QueueViews({
  counts,
  countedAt,
  current,
}: {
  counts: Record<TQueueView, number>;
  countedAt: string;
  current: TQueueView | "waiting" | null;
}) {
  return (
    <nav aria-label="Queue views" className="mb-3">
      <ul className="flex flex-wrap gap-1.5">
        <li>
          <Link href="/" aria-current={current === "waiting" ? "page" : undefined} className={TAB(current === "waiting")}>
            Waiting, newest first
          </Link>
        </li>
        {QUEUE_VIEWS.map((view) => (
          <li key={view}>
            <Link href={`/?view=${view}`} aria-current={current === view ? "page" : undefined} className={TAB(current === view)}>
              {VIEW_LABELS[view]} <span className="tabular-nums opacity-80">{counts[view].toLocaleString("en-US")}</span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-1 text-[11px] text-slate-500">Counts as of {formatUtc(countedAt)}, refreshed at most every 10 seconds.</p>
    </nav>
  );
}

const TAB = (active: boolean) =>
  `inline-flex h-7 items-center gap-1.5 rounded-full border px-2.5 text-[12px] font-medium ${active ? "border-slate-900 bg-slate-900 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`;
