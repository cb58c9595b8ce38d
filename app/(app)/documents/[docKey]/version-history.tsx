// A version's history as the documents' pages show it: who wrote, sent, published and retired it,
// and when each happened (UTC, as everywhere in the app).
import { formatUtc } from "@/components/format";
import type { THistoryVersion } from "@/lib/documents/load-document-history";

type TVersionDatesOf = Pick<
  THistoryVersion,
  "status" | "createdAt" | "updatedAt" | "submittedAt" | "publishedAt" | "effectiveAt" | "retiredAt"
>;
type TPeopleOf = Pick<THistoryVersion, "author" | "submittedBy" | "publishedBy" | "retiredBy">;

/** The dates of a version's history, one a line, each with what happened. */
export function VersionDates({ v, now }: { v: TVersionDatesOf; now: Date }) {
  const lines: [string, Date][] = [[v.status === "draft" ? "Last saved" : "Written", v.status === "draft" ? v.updatedAt : v.createdAt]];
  if (v.submittedAt) lines.push(["Sent to review", v.submittedAt]);
  if (v.publishedAt) lines.push(["Published", v.publishedAt]);
  if (v.effectiveAt) lines.push([v.effectiveAt > now ? "Takes effect" : "Took effect", v.effectiveAt]);
  if (v.retiredAt) lines.push(["Retired", v.retiredAt]);
  return (
    <dl className="space-y-0.5 text-[12px]">
      {lines.map(([what, at]) => (
        <div key={what} className="flex flex-wrap gap-x-1">
          <dt className="text-slate-500">{what}</dt>
          <dd className="tabular-nums text-slate-800">
            <time dateTime={at.toISOString()}>{formatUtc(at, "minute")}</time>
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function VersionPeople({ v }: { v: TPeopleOf }) {
  const rows = [
    ["Author", v.author?.name ?? "Imported with the app"],
    ["Sent by", v.submittedBy?.name],
    ["Published by", v.publishedBy?.name],
    ["Retired by", v.retiredBy?.name],
  ].filter((r): r is [string, string] => !!r[1]);
  return (
    <dl className="space-y-0.5 text-[12px]">
      {rows.map(([what, who]) => (
        <div key={what} className="flex flex-wrap gap-x-1">
          <dt className="text-slate-500">{what}</dt>
          <dd className="wrap-anywhere text-slate-800">{who}</dd>
        </div>
      ))}
    </dl>
  );
}
