import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { Card } from "@/components/card";
import { EmptyState } from "@/components/empty-state";
import { FilterActions, FilterField, FilterForm, filterFieldsOf } from "@/components/filter-field";
import { formatUtc } from "@/components/format";
import { PageHeader } from "@/components/page-header";
import { hrefWith, Pager } from "@/components/pager";
import { Cell, CardRow, ResponsiveTable } from "@/components/responsive-table";
import { DocumentStatus } from "@/generated/prisma/enums";
import { requireRole } from "@/lib/auth/session";
import { mayUse } from "@/lib/contracts/roles";
import { listDocuments, type TDocumentRow } from "@/lib/documents/list-documents";
import { DOCUMENT_STATUS_WORDS, DocumentStatusBadge } from "./document-status";
import { IMPORT_FORM_LIMITS } from "./import-limits";
import { ImportForm } from "./import-form";
import { listQueryValues, parseListQuery, type TDocumentListQuery } from "./list-query";

export const metadata: Metadata = { title: "Policies" };

const PAGE_SIZE = 50;
type TSearchParams = Record<string, string | string[] | undefined>;

function Filters({ values, errors }: { values: Record<string, string>; errors: Record<string, string[] | undefined> }) {
  const filtered = Boolean(values.q || values.status || values.locale);
  const at = filterFieldsOf("documents", values, errors);
  return (
    <FilterForm action="/documents" label="Filter the documents" className="mb-3 grid grid-cols-2 items-end gap-3 sm:flex sm:flex-wrap">
      <FilterField {...at("q")} label="Key or title" className="col-span-2 sm:w-72">
        {(control) => <input {...control} type="search" autoComplete="off" />}
      </FilterField>
      <FilterField {...at("status")} label="State of the latest version" className="sm:w-44">
        {(control) => (
          <select {...control}>
            <option value="">Any</option>
            {Object.values(DocumentStatus).map((s) => (
              <option key={s} value={s}>
                {DOCUMENT_STATUS_WORDS[s]}
              </option>
            ))}
          </select>
        )}
      </FilterField>
      <FilterField {...at("locale")} label="Locale" className="sm:w-36">
        {(control) => <input {...control} placeholder="en" autoComplete="off" spellCheck={false} />}
      </FilterField>
      {/* Level with the fields, below their labels, whatever errors they show under them. */}
      <FilterActions
        submit="Apply filters"
        clear="Clear filters"
        clearHref="/documents"
        filtered={filtered}
        className="col-span-2 flex items-center gap-3 sm:pt-[22px]"
      />
    </FilterForm>
  );
}

function DocumentsTable({ rows }: { rows: TDocumentRow[] }) {
  return (
    <ResponsiveTable
      caption="Policy documents by key, each with its latest version"
      columns={["Document", "Locale", "Latest version", "In effect", "Owner", "Author", "Updated"]}
    >
      {rows.map((r) => (
        <CardRow key={r.docKey} className="hover:bg-slate-50">
          <Cell rowHeader className="col-span-2 min-w-0 font-normal md:col-span-1 md:max-w-96">
            <Link
              href={`/documents/${encodeURIComponent(r.docKey)}`}
              prefetch={false}
              className="font-medium wrap-anywhere text-slate-900 hover:text-indigo-700 hover:underline"
            >
              {r.title}
            </Link>
            <code className="block font-mono text-[11px] wrap-anywhere text-slate-500">{r.docKey}</code>
          </Cell>
          <Cell label="Locale">
            <code className="font-mono text-[12px]">{r.locale}</code>
          </Cell>
          <Cell label="Latest version">
            <span className="flex flex-wrap items-center gap-1.5">
              <span className="tabular-nums text-slate-700">v{r.version}</span>
              <DocumentStatusBadge status={r.status} />
            </span>
          </Cell>
          <Cell label="In effect" className="tabular-nums">
            {r.inEffectVersion ? (
              <span className="text-slate-800">v{r.inEffectVersion}</span>
            ) : (
              <span className="text-slate-500">None</span>
            )}
          </Cell>
          <Cell label="Owner" className="min-w-0 wrap-anywhere">
            {r.owner ?? <span className="text-slate-400">–</span>}
          </Cell>
          <Cell label="Author" className="min-w-0 wrap-anywhere">
            {r.authorName ?? <span className="text-slate-500">Imported with the app</span>}
          </Cell>
          <Cell label="Updated" className="tabular-nums text-slate-700 md:whitespace-nowrap">
            <time dateTime={r.updatedAt.toISOString()}>{formatUtc(r.updatedAt, "minute")}</time>
          </Cell>
        </CardRow>
      ))}
    </ResponsiveTable>
  );
}

function ImportArea({ open }: { open: boolean }) {
  return (
    <details open={open} className="group mb-4 rounded-lg border border-slate-200 bg-white">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 px-4 py-2.5 text-[13px] font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
        <span>Import Markdown files</span>
        <span aria-hidden="true" className="text-slate-500 group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="border-t border-slate-100 p-4">
        <ImportForm limits={IMPORT_FORM_LIMITS} />
      </div>
    </details>
  );
}

function pageLinks(query: TDocumentListQuery, page: number, total: number) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const at = (n: number) =>
    hrefWith("/documents", { q: query.q, status: query.status, locale: query.locale, page: n > 1 ? String(n) : null });
  return { pages, previous: page > 1 ? at(Math.min(page - 1, pages)) : null, next: page < pages ? at(page + 1) : null };
}

function Listing({ query, list }: { query: TDocumentListQuery; list: Awaited<ReturnType<typeof listDocuments>> }) {
  const filtered = Boolean(query.q || query.status || query.locale);
  const page = list.page.number;
  const links = pageLinks(query, page, list.total);
  if (!list.documents.length) {
    if (page > 1 && list.total > 0)
      return (
        <EmptyState title="No documents on this page">
          <Link href={links.previous ?? "/documents"} className="font-medium text-indigo-700 hover:underline">
            Back to the last page
          </Link>
        </EmptyState>
      );
    return filtered ? (
      <EmptyState title="No documents match these filters">
        Try other words or another state, or{" "}
        <Link href="/documents" className="font-medium text-indigo-700 hover:underline">
          clear the filters
        </Link>
        .
      </EmptyState>
    ) : (
      <EmptyState title="No policy documents yet">
        Import Markdown files: each becomes a draft, evidence only once a second person publishes it.
      </EmptyState>
    );
  }
  const first = (page - 1) * list.page.size + 1;
  return (
    <>
      <p className="mb-2 text-[13px] text-slate-600">
        <span className="font-medium text-slate-900">{list.total.toLocaleString("en-US")}</span>{" "}
        {list.total === 1 ? "document" : "documents"}
        {filtered ? " match these filters" : ""}
      </p>
      <DocumentsTable rows={list.documents} />
      <Pager label="Document pages" previous={links.previous} next={links.next} previousText="Previous" nextText="Next">
        Page {page} of {links.pages} · {first.toLocaleString("en-US")}–{(first + list.documents.length - 1).toLocaleString("en-US")} of{" "}
        {list.total.toLocaleString("en-US")}
      </Pager>
    </>
  );
}

export default async function DocumentsPage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  const user = await requireRole("documents");
  const values = listQueryValues(await searchParams);
  const parsed = parseListQuery(values);
  const query: TDocumentListQuery = parsed.success ? parsed.data : {};
  const list = parsed.success
    ? await listDocuments({
        filter: { query: query.q, status: query.status, locale: query.locale },
        page: { number: query.page ?? 1, size: PAGE_SIZE },
      })
    : null;
  const errors = parsed.success ? {} : (z.flattenError(parsed.error).fieldErrors as Record<string, string[] | undefined>);
  const mayImport = mayUse(user.role, "writeDocuments");
  return (
    <>
      <PageHeader
        title="Policies"
        description="The documents the agent answers from. A version is evidence only once a second person publishes it."
      />
      {mayImport ? <ImportArea open={list?.total === 0 && !query.q && !query.status && !query.locale} /> : null}
      <Filters key={JSON.stringify(values)} values={values} errors={errors} />
      {list ? (
        <Listing query={query} list={list} />
      ) : errors.page && Object.keys(errors).length === 1 ? (
        <Card id="documents-page-error" title="No such page">
          <p className="text-[13px] text-slate-700">{errors.page.join(" ")}</p>
        </Card>
      ) : (
        <EmptyState title="Check the filters">Correct the highlighted field to see the documents.</EmptyState>
      )}
    </>
  );
}
