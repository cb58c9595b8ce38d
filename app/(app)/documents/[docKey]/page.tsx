import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/components/breadcrumbs";
import { Card } from "@/components/card";
import { Cell, CardRow, ResponsiveTable } from "@/components/responsive-table";
import { requireRole } from "@/lib/auth/session";
import { loadDocumentHistory, type TDocumentHistory } from "@/lib/documents/load-document-history";
import { loadPolicySettings } from "@/lib/policy/settings";
import { formatUtc } from "@/components/format";
import { DocumentStatusBadge, scheduledFor, ShortHash } from "../document-status";
import { VersionActions } from "./version-actions";
import { loadVersionMoves } from "./load-version-moves";
import { VersionDates, VersionPeople } from "./version-history";

export const metadata: Metadata = { title: "Policy document" };

const DOC_KEY = /^[a-z0-9][a-z0-9-]{0,79}$/;
const DOT = "before:mr-2 before:text-slate-400 before:content-['·']";

function VersionsTable({ history, now }: { history: TDocumentHistory; now: Date }) {
  const key = encodeURIComponent(history.docKey);
  return (
    <ResponsiveTable caption="Versions, newest first" columns={["Version", "State", "People", "Dates", "Content hash", "Changes"]}>
      {history.versions.map((v) => (
        <CardRow key={v.id} className="align-top hover:bg-slate-50">
          <Cell rowHeader className="font-normal">
            <Link href={`/documents/${key}/${v.version}`} prefetch={false} className="font-medium text-indigo-700 hover:underline">
              v{v.version}
            </Link>
            {v.version === history.inEffectVersion ? (
              <span className="ml-1.5 text-[12px] font-medium text-emerald-800">in effect</span>
            ) : null}
          </Cell>
          <Cell label="State">
            <DocumentStatusBadge status={v.status} scheduledFor={scheduledFor(v, now)} />
          </Cell>
          <Cell label="People" className="min-w-0">
            <VersionPeople v={v} />
          </Cell>
          <Cell label="Dates">
            <VersionDates v={v} now={now} />
          </Cell>
          <Cell label="Content hash">
            <ShortHash hash={v.contentHash} />
          </Cell>
          <Cell label="Changes">
            {v.version > 1 && history.versions.some((o) => o.version < v.version) ? (
              <Link
                prefetch={false}
                href={`/documents/${key}/diff?from=${history.versions.find((o) => o.version < v.version)!.version}&to=${v.version}`}
                className="text-[13px] text-indigo-700 hover:underline"
              >
                Compare with v{history.versions.find((o) => o.version < v.version)!.version}
              </Link>
            ) : (
              <span className="text-[12px] text-slate-500">First version</span>
            )}
          </Cell>
        </CardRow>
      ))}
    </ResponsiveTable>
  );
}

/** Which version the agent cites now, and which one will take over at a time to come. */
function InEffect({ history, now }: { history: TDocumentHistory; now: Date }) {
  const next = history.versions.find((v) => scheduledFor(v, now));
  const coming = next ? ` v${next.version} takes effect at ${formatUtc(next.effectiveAt!, "minute")}.` : "";
  return history.inEffectVersion ? (
    <span className="font-medium text-emerald-800">
      v{history.inEffectVersion} is in effect.{coming}
    </span>
  ) : (
    <span className="text-slate-600">No version is in effect: the agent cites none of it.{coming}</span>
  );
}

/** A document: where it stands, its versions and their history, and what can be done with the latest. */
export default async function DocumentPage({ params }: { params: Promise<{ docKey: string }> }) {
  const [user, { docKey: raw }] = await Promise.all([requireRole("documents"), params]);
  const docKey = decodeURIComponent(raw);
  if (!DOC_KEY.test(docKey)) notFound();
  const [history, settings] = await Promise.all([loadDocumentHistory({ docKey }), loadPolicySettings()]);
  if (!history) notFound();
  const now = new Date();
  const { latest } = history;
  const moves = await loadVersionMoves(history, latest, user, settings["documents.publishRole"]);
  return (
    <div className="space-y-4">
      <div>
        <Breadcrumbs trail={[{ href: "/documents", label: "Policies" }]} current={docKey} />
        <h1 className="text-lg font-semibold tracking-tight wrap-anywhere text-slate-900">{latest.title}</h1>
        <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-[13px] text-slate-600">
          {/* Each dot goes with what follows it: a line that wraps never ends on one. */}
          <code className="font-mono text-[12px]">{docKey}</code>
          <span className={DOT}>
            Locale <code className="font-mono text-[12px]">{latest.locale}</code>
          </span>
          <span className={DOT}>Owner: {latest.owner ?? "none named"}</span>
          <span className={DOT}>
            <InEffect history={history} now={now} />
          </span>
        </p>
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          <VersionsTable history={history} now={now} />
        </div>
        <div className="order-first min-w-0 lg:order-none">
          <Card
            id="latest-version"
            title={`Latest version: v${latest.version}`}
            actions={
              <Link
                href={`/documents/${encodeURIComponent(docKey)}/${latest.version}`}
                className="text-[13px] text-indigo-700 hover:underline"
              >
                Read it
              </Link>
            }
          >
            <div className="mb-3 flex flex-wrap items-center gap-2 text-[13px]">
              <DocumentStatusBadge status={latest.status} scheduledFor={scheduledFor(latest, now)} />
              <span className="text-slate-600">
                {latest._count.chunks} {latest._count.chunks === 1 ? "passage" : "passages"}
              </span>
            </div>
            <VersionActions documentId={latest.id} docKey={docKey} version={latest.version} moves={moves} />
          </Card>
        </div>
      </div>
    </div>
  );
}
