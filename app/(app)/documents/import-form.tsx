"use client";
// Import by upload: Markdown files or a whole folder, read in the browser (checked there as UTF-8
// within the limits), sent in one server action, and each file's outcome shown with every problem as
// file:line. The selection lives in this component's state, not in the file inputs: a refused or
// failed upload leaves it as it was, to be sent again.
import Link from "next/link";
import { useId, useState, useTransition } from "react";
import { failureText } from "@/components/action-message";
import { Cell, CardRow, ResponsiveTable } from "@/components/responsive-table";
import type { TImportOutcome } from "@/lib/documents/import-documents";
import { importDocumentsAction } from "./actions";
import {
  decodePicked,
  formatBytes,
  isMarkdownName,
  mergeSelection,
  pickedName,
  uploadProblem,
  type TImportLimits,
  type TPickedFile,
} from "./import-selection";

const BUTTON =
  "inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50";
const PRIMARY =
  "inline-flex h-8 items-center rounded-md bg-indigo-600 px-3 text-[13px] font-medium text-white hover:bg-indigo-700 disabled:cursor-not-allowed disabled:opacity-60";

type TMessage = { tone: "ok" | "error"; text: string };

async function readFiles(list: FileList, limits: TImportLimits): Promise<{ picked: TPickedFile[]; skipped: string[] }> {
  const picked: TPickedFile[] = [];
  const skipped: string[] = [];
  for (const file of Array.from(list)) {
    const name = pickedName(file);
    if (!isMarkdownName(name)) skipped.push(name);
    else picked.push(decodePicked(name, new Uint8Array(await file.arrayBuffer()), limits));
  }
  return { picked, skipped };
}

function useImport(limits: TImportLimits) {
  const [files, setFiles] = useState<TPickedFile[]>([]);
  const [skipped, setSkipped] = useState<string[]>([]);
  const [outcomes, setOutcomes] = useState<TImportOutcome[] | null>(null);
  const [message, setMessage] = useState<TMessage | null>(null);
  const [pending, startTransition] = useTransition();
  const sendable = files.flatMap((f) => (f.text === null ? [] : [{ name: f.name, text: f.text }]));
  const tooMuch = uploadProblem(sendable, limits);

  const add = async (list: FileList | null) => {
    if (!list?.length) return;
    const read = await readFiles(list, limits);
    setFiles((current) => mergeSelection(current, read.picked));
    setSkipped(read.skipped);
    setOutcomes(null);
    setMessage(null);
  };
  const remove = (name: string) => setFiles((current) => current.filter((f) => f.name !== name));
  const clear = () => {
    setFiles([]);
    setSkipped([]);
  };
  const send = () =>
    startTransition(async () => {
      setMessage(null);
      let result: Awaited<ReturnType<typeof importDocumentsAction>>;
      try {
        result = await importDocumentsAction({ files: sendable });
      } catch {
        // The request never got an answer (the connection dropped, or the body was refused on the way).
        setMessage({
          tone: "error",
          text: "The upload did not reach the server: nothing was imported. Your selection is kept; try again.",
        });
        return;
      }
      if (result.status !== "ok") {
        const why = failureText(result, {
          forbidden: "Your role may not import documents: specialists, leads and admins may.",
          invalid: "The upload was refused as it was sent.",
          signedOut: "Nothing was imported; your selection is kept.",
        });
        setMessage({ tone: "error", text: `${why} Nothing was imported; your selection is kept.` });
        return;
      }
      setOutcomes(result.files);
      setMessage(importSummary(result.ok, result.files));
      // All or nothing: once imported the selection is done with; refused, it stays to be sent again.
      if (result.ok) clear();
    });
  return { files, skipped, sendable, tooMuch, outcomes, message, pending, add, remove, clear, send };
}

function importSummary(ok: boolean, outcomes: readonly TImportOutcome[]): TMessage {
  const count = (status: TImportOutcome["status"]) => outcomes.filter((o) => o.status === status).length;
  if (!ok) {
    const bad = count("problems");
    return {
      tone: "error",
      text: `Nothing was imported: ${bad} ${bad === 1 ? "file has" : "files have"} problems, listed below. Your selection is kept: choose a fixed file again to replace it, then import.`,
    };
  }
  const parts = [
    [count("created"), "new draft", "new drafts"],
    [count("updated"), "draft of yours updated", "drafts of yours updated"],
    [count("unchanged"), "unchanged", "unchanged"],
    [count("skipped"), "skipped for a later version", "skipped for a later version"],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  return { tone: "ok", text: `Imported: ${said.join(", ")}. A draft is evidence only once a second person publishes it.` };
}

/** The form: pick files or a folder, see what will be sent, import; then each file's outcome. */
export function ImportForm({ limits }: { limits: TImportLimits }) {
  const upload = useImport(limits);
  const canSend = upload.sendable.length > 0 && !upload.tooMuch && !upload.pending;
  return (
    <div className="space-y-3">
      <form
        aria-label="Upload policy documents"
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (canSend) upload.send();
        }}
      >
        <FilePickers onPick={upload.add} />
        <p className="text-[12px] text-slate-500">
          Up to {limits.maxFiles} files and {formatBytes(limits.maxPayloadBytes)} in one upload, {formatBytes(limits.maxFileBytes)} a
          document. Each file becomes a draft: a new document, or the next version of the document its key names.
        </p>
        <Selection files={upload.files} skipped={upload.skipped} onRemove={upload.remove} />
        {upload.tooMuch ? (
          <p role="alert" className="text-[13px] font-medium text-red-700">
            {upload.tooMuch}
          </p>
        ) : null}
        <UploadButtons upload={upload} canSend={canSend} />
      </form>
      {upload.outcomes ? <Outcomes outcomes={upload.outcomes} /> : null}
    </div>
  );
}

/** Files, or a folder: each pick adds to the selection (a file chosen again replaces its namesake). */
function FilePickers({ onPick }: { onPick: (files: FileList | null) => Promise<void> }) {
  const id = useId();
  // Emptied once read, so choosing the same file again (fixed on disk) is a change the input reports.
  const pick = (e: React.ChangeEvent<HTMLInputElement>) => void onPick(e.currentTarget.files).then(() => (e.target.value = ""));
  return (
    <div className="flex flex-wrap gap-x-6 gap-y-3 text-[13px]">
      <div>
        <label htmlFor={`${id}-files`} className="mb-1 block font-medium text-slate-900">
          Markdown files
        </label>
        <input
          id={`${id}-files`}
          type="file"
          multiple
          accept=".md,.markdown,text/markdown"
          onChange={pick}
          className="block max-w-full text-[13px] file:mr-2 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-2.5 file:py-1 file:text-[13px] file:font-medium"
        />
      </div>
      <div>
        <label htmlFor={`${id}-folder`} className="mb-1 block font-medium text-slate-900">
          A folder <span className="font-normal text-slate-500">(its .md files, sub-folders included)</span>
        </label>
        <input
          id={`${id}-folder`}
          type="file"
          multiple
          // React passes unknown lower-case attributes through: the browser's folder picker.
          {...{ webkitdirectory: "", directory: "" }}
          onChange={pick}
          className="block max-w-full text-[13px] file:mr-2 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-2.5 file:py-1 file:text-[13px] file:font-medium"
        />
      </div>
    </div>
  );
}

function UploadButtons({ upload, canSend }: { upload: ReturnType<typeof useImport>; canSend: boolean }) {
  return (
    <div className="flex flex-wrap items-center gap-3 border-t border-slate-100 pt-3">
      <button type="submit" disabled={!canSend} aria-busy={upload.pending} className={PRIMARY}>
        {upload.pending
          ? "Importing…"
          : upload.sendable.length
            ? `Import ${upload.sendable.length} ${upload.sendable.length === 1 ? "file" : "files"}`
            : "Import"}
      </button>
      {upload.files.length ? (
        <button type="button" onClick={upload.clear} disabled={upload.pending} className={BUTTON}>
          Clear selection
        </button>
      ) : null}
      <p
        role="status"
        data-testid="import-message"
        className={`min-w-0 basis-full text-[13px] sm:flex-1 sm:basis-0 ${upload.message?.tone === "error" ? "text-red-700" : "text-emerald-700"}`}
      >
        {upload.message?.text}
      </p>
    </div>
  );
}

function Selection({ files, skipped, onRemove }: { files: TPickedFile[]; skipped: string[]; onRemove: (name: string) => void }) {
  if (!files.length && !skipped.length) return null;
  return (
    <div className="space-y-1 text-[13px]">
      {files.length ? (
        <ul aria-label="Selected files" className="max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200">
          {files.map((f) => (
            <li key={f.name} className="flex items-start justify-between gap-3 px-2.5 py-1.5">
              <span className="min-w-0">
                <span className="font-mono text-[12px] wrap-anywhere text-slate-900">{f.name}</span>{" "}
                <span className="text-[12px] text-slate-500">{formatBytes(f.bytes)}</span>
                {f.problem ? <span className="block text-[12px] font-medium text-red-700">Not sent: {f.problem}</span> : null}
              </span>
              <button
                type="button"
                onClick={() => onRemove(f.name)}
                className="shrink-0 text-[12px] font-medium text-indigo-700 hover:underline"
                aria-label={`Remove ${f.name} from the selection`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {skipped.length ? (
        <p className="text-[12px] text-slate-600">
          Left out, not Markdown (.md):{" "}
          {skipped.length <= 5 ? skipped.join(", ") : `${skipped.slice(0, 5).join(", ")} and ${skipped.length - 5} more`}.
        </p>
      ) : null}
    </div>
  );
}

const OUTCOME_WORDS = {
  created: "New draft",
  updated: "Your draft, updated",
  unchanged: "Unchanged: the latest version has this content",
  skipped: "Skipped",
  held: "Not imported",
  problems: "Problems",
} satisfies Record<TImportOutcome["status"], string>;

function OutcomeDetail({ outcome: o }: { outcome: TImportOutcome }) {
  if (o.status === "problems")
    return (
      <ul aria-label={`Problems in ${o.name}`} className="mt-1 space-y-0.5 text-[12px] text-red-800">
        {[...o.problems]
          .sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity))
          .map((p, i) => (
            <li key={i}>
              <code className="font-mono font-medium">
                {o.name}
                {p.line ? `:${p.line}` : ""}
              </code>{" "}
              {p.message}
            </li>
          ))}
      </ul>
    );
  const notes = "reason" in o ? [o.reason] : o.notes;
  return notes.length ? <p className="mt-0.5 text-[12px] text-slate-600">{notes.join(" ")}</p> : null;
}

/** Each file's outcome; a file with problems lists them as file:line. */
function Outcomes({ outcomes }: { outcomes: TImportOutcome[] }) {
  return (
    <ResponsiveTable caption="What the import did with each file" columns={["File", "Outcome", "Document"]}>
      {outcomes.map((o) => (
        <CardRow key={o.name} className={o.status === "problems" ? "bg-red-50 align-top" : "align-top"}>
          <Cell label="File" className="col-span-2 min-w-0 md:col-span-1">
            <span className="font-mono text-[12px] wrap-anywhere">{o.name}</span>
          </Cell>
          <Cell label="Outcome" className="col-span-2 min-w-0 md:col-span-1">
            <span className={o.status === "problems" ? "font-medium text-red-800" : "text-slate-800"}>{OUTCOME_WORDS[o.status]}</span>
            <OutcomeDetail outcome={o} />
          </Cell>
          <Cell label="Document" className="min-w-0">
            {"version" in o ? (
              <Link
                prefetch={false}
                href={`/documents/${encodeURIComponent(o.docKey)}/${o.version}`}
                className="font-mono text-[12px] text-indigo-700 hover:underline"
              >
                {o.docKey}@{o.version}
              </Link>
            ) : "docKey" in o ? (
              <code className="font-mono text-[12px] text-slate-600">{o.docKey}</code>
            ) : (
              <span className="text-slate-400">–</span>
            )}
          </Cell>
        </CardRow>
      ))}
    </ResponsiveTable>
  );
}
