import Link from "next/link";

/** A path with the given query parameters, leaving out empty ones. */
export function hrefWith(path: string, params: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

const LINK =
  "inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-2.5 py-1 text-[13px] font-medium text-slate-700 hover:bg-slate-50";
const DISABLED =
  "inline-flex items-center gap-1 rounded-md border border-slate-200 bg-slate-50 px-2.5 py-1 text-[13px] font-medium text-slate-400";

/** Keyset paging: a link to the page before and after this one, or a dimmed label where there is none.
 * Not prefetched: on the live queue the cursors move with every refresh. */
export function Pager({
  label,
  previous,
  next,
  previousText = "Newer",
  nextText = "Older",
  children,
}: {
  label: string;
  previous: string | null;
  next: string | null;
  previousText?: string;
  nextText?: string;
  children?: React.ReactNode;
}) {
  return (
    <nav aria-label={label} className="mt-3 flex flex-wrap items-center justify-between gap-2">
      <div className="text-[12px] text-slate-500">{children}</div>
      <div className="flex items-center gap-2">
        {previous ? (
          <Link href={previous} prefetch={false} className={LINK}>
            <span aria-hidden="true">←</span> {previousText}
          </Link>
        ) : (
          <span aria-disabled="true" className={DISABLED}>
            <span aria-hidden="true">←</span> {previousText}
          </span>
        )}
        {next ? (
          <Link href={next} prefetch={false} className={LINK}>
            {nextText} <span aria-hidden="true">→</span>
          </Link>
        ) : (
          <span aria-disabled="true" className={DISABLED}>
            {nextText} <span aria-hidden="true">→</span>
          </span>
        )}
      </div>
    </nav>
  );
}
