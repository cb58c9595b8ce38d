import type { Metadata } from "next";
import Form from "next/form";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Card } from "@/components/card";
import { EmptyState } from "@/components/empty-state";
import { requireRole } from "@/lib/auth/session";
import { diffVersions } from "@/lib/documents/diff-versions";
import { loadDocumentHistory, type TDocumentHistory } from "@/lib/documents/load-document-history";
import { AudienceBadge } from "../../audience-badge";
import { DocumentStatusBadge, ShortHash } from "../../document-status";
import { DocumentHeader } from "../document-header";
import { diffRows, type TDiffRow } from "./diff-rows";

export const metadata: Metadata = { title: "Compare versions" };

type TSearchParams = Record<string, string | string[] | undefined>;
type TDiff = NonNullable<Awaited<ReturnType<typeof diffVersions>>>;

const DOC_KEY = /^[a-z0-9][a-z0-9-]{0,79}$/;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const versionParam = (value: string | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : null);

/** The two versions asked for; without both, the latest against the one before it. */
function chosenVersions(history: TDocumentHistory, params: TSearchParams): { from: number; to: number } | null {
  const to = versionParam(first(params.to)) ?? history.latest.version;
  const from = versionParam(first(params.from)) ?? history.versions.find((v) => v.version < to)?.version ?? null;
  return from === null ? null : { from, to };
}

function VersionPicker({ history, from, to }: { history: TDocumentHistory; from: number; to: number }) {
  const select = "mt-1 block h-8 rounded-md border border-slate-300 bg-white px-2 text-[13px]";
  const options = history.versions.map((v) => (
    <option key={v.version} value={v.version}>
      v{v.version} ({v.status.replace("_", " ")})
    </option>
  ));
  return (
    <Form
      action={`/documents/${encodeURIComponent(history.docKey)}/diff`}
      aria-label="Choose the versions"
      className="flex flex-wrap items-end gap-3"
    >
      <label className="text-[12px] font-medium text-slate-600">
        From
        <select name="from" defaultValue={from} className={select}>
          {options}
        </select>
      </label>
      <label className="text-[12px] font-medium text-slate-600">
        To
        <select name="to" defaultValue={to} className={select}>
          {options}
        </select>
      </label>
      <button type="submit" className="h-8 rounded-md bg-slate-900 px-3 text-[13px] font-medium text-white hover:bg-slate-800">
        Compare
      </button>
    </Form>
  );
}

function PassageText({ heading, text, audience }: { heading: string; text: string; audience: "customer" | "staff" }) {
  return (
    <span className="block min-w-0">
      <span className="flex flex-wrap items-center gap-1.5 text-[12px] font-medium text-slate-700">
        {heading} <AudienceBadge audience={audience} />
      </span>
      <span className="block text-[13px] text-slate-800">{text}</span>
    </span>
  );
}

/** What changes for retrieval and citations: passages gained, lost, reworded, or moved between customers and staff. */
/** The summary's groups, each with its sign and words (never its colour alone), empty ones left out. */
function passageGroups(passages: TDiff["passages"]) {
  return [
    {
      title: "Added",
      sign: "+",
      tone: "border-emerald-300 bg-emerald-50",
      items: passages.added.map((p) => <PassageText key={p.heading + p.text} {...p} />),
    },
    {
      title: "Removed",
      sign: "−",
      tone: "border-red-300 bg-red-50",
      items: passages.removed.map((p) => <PassageText key={p.heading + p.text} {...p} />),
    },
    {
      title: "Reworded",
      sign: "~",
      tone: "border-sky-300 bg-sky-50",
      items: passages.changed.map((c) => (
        <span key={c.heading + c.after.text} className="block space-y-1">
          <span className="block text-[12px] font-medium text-slate-700">{c.heading}</span>
          <del className="block text-[13px] text-red-900 decoration-red-400">
            <span className="sr-only">Before: </span>
            {c.before.text}
          </del>
          <ins className="block text-[13px] text-emerald-900 no-underline">
            <span className="sr-only">After: </span>
            {c.after.text}
          </ins>
        </span>
      )),
    },
    {
      title: "Audience changed",
      sign: "⇄",
      tone: "border-amber-300 bg-amber-50",
      items: passages.audienceChanged.map((a) => (
        <span key={a.heading + a.text} className="block">
          <span className="flex flex-wrap items-center gap-1.5 text-[12px] font-medium text-slate-700">
            {a.heading}: <AudienceBadge audience={a.from} /> <span aria-label="becomes">→</span> <AudienceBadge audience={a.to} />
          </span>
          <span className="block text-[13px] text-slate-800">{a.text}</span>
        </span>
      )),
    },
  ].filter((g) => g.items.length);
}

function PassageSummary({ passages }: { passages: TDiff["passages"] }) {
  const groups = passageGroups(passages);
  return (
    <Card
      id="passage-changes"
      title="Passages"
      description={`${passages.added.length} added, ${passages.removed.length} removed, ${passages.changed.length} reworded, ${passages.audienceChanged.length} changed audience, ${passages.unchanged} unchanged`}
    >
      {groups.length ? (
        <div className="space-y-3">
          {groups.map((g) => (
            <section key={g.title} aria-label={`${g.title} passages`}>
              <h3 className="mb-1 text-[12px] font-semibold text-slate-900">
                <span aria-hidden="true">{g.sign} </span>
                {g.title} ({g.items.length})
              </h3>
              <ul className="space-y-1.5">
                {g.items.map((item, i) => (
                  <li key={i} className={`rounded-md border-l-4 p-2 ${g.tone}`}>
                    {item}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      ) : (
        <p className="text-[13px] text-slate-600">No passage changes: the two versions make the same passages.</p>
      )}
    </Card>
  );
}

const ROW_STYLE = {
  added: { sign: "+", words: "Added", row: "bg-emerald-50", text: "text-emerald-950" },
  removed: { sign: "−", words: "Removed", row: "bg-red-50", text: "text-red-950" },
  same: { sign: " ", words: "Unchanged", row: "", text: "text-slate-700" },
} as const;

function DiffRow({ row }: { row: TDiffRow }) {
  if (row.kind === "folded")
    return (
      <tr className="bg-slate-50 text-slate-500">
        <td colSpan={4} className="px-2 py-1 text-center text-[12px]">
          {row.lines} unchanged lines (from line {row.oldLine} in the old version, {row.newLine} in the new)
        </td>
      </tr>
    );
  const style = ROW_STYLE[row.kind];
  const Text = row.kind === "added" ? "ins" : row.kind === "removed" ? "del" : "span";
  return (
    <tr className={`align-top ${style.row}`}>
      <td className="w-10 px-2 text-right text-slate-500 select-none tabular-nums">{row.oldLine ?? ""}</td>
      <td className="w-10 px-2 text-right text-slate-500 select-none tabular-nums">{row.newLine ?? ""}</td>
      <td className={`w-6 px-1 text-center font-bold select-none ${style.text}`}>
        <span aria-hidden="true">{style.sign}</span>
        {row.kind !== "same" ? <span className="sr-only">{style.words}</span> : null}
      </td>
      <td className={`px-2 whitespace-pre-wrap break-words ${style.text}`}>
        <Text className="no-underline">{row.text || " "}</Text>
      </td>
    </tr>
  );
}

function LineDiff({ diff }: { diff: TDiff }) {
  const rows = diffRows(diff.lines);
  const added = diff.lines.filter((l) => l.kind === "added").reduce((n, l) => n + l.lines, 0);
  const removed = diff.lines.filter((l) => l.kind === "removed").reduce((n, l) => n + l.lines, 0);
  return (
    <Card
      id="line-changes"
      title="Markdown, line by line"
      description={`${added} lines added (+), ${removed} removed (−)`}
      bodyClassName="overflow-x-auto"
    >
      {added + removed === 0 ? (
        <p className="p-4 text-[13px] text-slate-600">The two versions have the same text.</p>
      ) : (
        <table className="w-full border-collapse font-mono text-[12px] leading-5">
          <caption className="sr-only">
            Lines of v{diff.from.version} and v{diff.to.version}: added lines marked +, removed lines −; numbers in the old and the new
            version
          </caption>
          <thead className="sr-only">
            <tr>
              <th scope="col">Old line</th>
              <th scope="col">New line</th>
              <th scope="col">Change</th>
              <th scope="col">Text</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <DiffRow key={i} row={row} />
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function VersionHeading({ label, v, docKey }: { label: string; v: TDiff["from"]; docKey: string }) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-[13px]">
      <span className="text-slate-500">{label}</span>
      <Link href={`/documents/${encodeURIComponent(docKey)}/${v.version}`} className="font-medium text-indigo-700 hover:underline">
        v{v.version}
      </Link>
      <DocumentStatusBadge status={v.status} />
      <ShortHash hash={v.contentHash} />
    </p>
  );
}

/** Two versions of a document compared: the passages that change, then the Markdown line by line. */
export default async function DiffPage({
  params,
  searchParams,
}: {
  params: Promise<{ docKey: string }>;
  searchParams: Promise<TSearchParams>;
}) {
  await requireRole("documents");
  const docKey = decodeURIComponent((await params).docKey);
  if (!DOC_KEY.test(docKey)) notFound();
  const history = await loadDocumentHistory({ docKey });
  if (!history) notFound();
  const chosen = chosenVersions(history, await searchParams);
  const diff = chosen ? await diffVersions({ docKey, ...chosen }) : null;
  return (
    <div className="space-y-4">
      <DocumentHeader
        docKey={docKey}
        current="Compare versions"
        title={`${diff ? `Changes from v${diff.from.version} to v${diff.to.version}` : "Compare versions"}: ${history.latest.title}`}
      />
      {chosen ? <VersionPicker history={history} from={chosen.from} to={chosen.to} /> : null}
      {!diff ? (
        <EmptyState title={chosen ? "No such version" : "Only one version"}>
          {chosen ? "Choose two versions this document has." : `${docKey} has one version so far: there is nothing to compare it with.`}
        </EmptyState>
      ) : (
        <>
          <div className="flex flex-wrap gap-x-6 gap-y-1">
            <VersionHeading label="From" v={diff.from} docKey={docKey} />
            <VersionHeading label="To" v={diff.to} docKey={docKey} />
          </div>
          <PassageSummary passages={diff.passages} />
          <LineDiff diff={diff} />
        </>
      )}
    </div>
  );
}
