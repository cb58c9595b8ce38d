"use client";
// The draft's Markdown in a textarea, checked by the same parser every import uses: its problems by
// line (a click puts the cursor there) and the passages it will make, each with its audience. Saved
// with the content hash it was loaded with, so a save over someone else's newer text is refused
// instead of replacing it; the text typed here stays in the box whatever the answer.
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { failureText } from "@/components/action-message";
import { AudienceBadge } from "../audience-badge";
import { checkDraftAction, saveDraftAction, writeVersionAction, type TDraftCheck } from "./actions";

type TMessage = { tone: "ok" | "error"; text: string };

/** What the editor saves into: the draft it loaded (saved in place, from its content hash), or a new version of the document. */
export type TEditTarget = { kind: "draft"; documentId: string; contentHash: string } | { kind: "newVersion"; docKey: string };

type TSaveAnswer = { check?: TDraftCheck; message: TMessage; savedHash?: string; openHref?: string };

async function saveDraftText(target: Extract<TEditTarget, { kind: "draft" }>, source: string, loadedHash: string): Promise<TSaveAnswer> {
  const result = await saveDraftAction({ documentId: target.documentId, source, expectedContentHash: loadedHash });
  if (result.status === "ok")
    return {
      check: result.check,
      savedHash: result.contentHash,
      message: {
        tone: "ok",
        text: result.changed
          ? `Saved. Content hash ${result.contentHash.slice(0, 12)}.`
          : "Nothing to save: the draft already has this text.",
      },
    };
  if (result.status === "error" && result.code === "stale")
    return {
      message: {
        tone: "error",
        text: `${result.message} Your text is still here: copy what you need before you reload.`,
      },
    };
  if (result.status === "error" && result.code === "invalid" && result.field === "source") {
    const checked = await checkDraftAction({ source });
    return {
      check: checked.status === "ok" ? checked.check : undefined,
      message: { tone: "error", text: "Not saved: the Markdown has problems, listed below. Your text is kept." },
    };
  }
  return { message: { tone: "error", text: `${failureText(result, WORDS)} Your text is kept.` } };
}

async function saveNewVersion(target: Extract<TEditTarget, { kind: "newVersion" }>, source: string): Promise<TSaveAnswer> {
  const result = await writeVersionAction({ docKey: target.docKey, source });
  if (result.status !== "ok") return { message: { tone: "error", text: `${failureText(result, WORDS)} Your text is kept.` } };
  const o = result.outcome;
  if (o.status === "problems")
    return {
      check: { problems: o.problems, passages: [] },
      message: { tone: "error", text: "Not saved: the Markdown has problems, listed below. Your text is kept." },
    };
  if (o.status === "unchanged")
    return {
      message: { tone: "error", text: `Not saved: ${o.docKey}@${o.version} already has exactly this text. Change something first.` },
    };
  if ("reason" in o) return { message: { tone: "error", text: `Not saved: ${o.reason}` } };
  return {
    message: { tone: "ok", text: `Saved as ${o.docKey}@${o.version}, a draft.` },
    openHref: `/documents/${encodeURIComponent(o.docKey)}/${o.version}/edit`,
  };
}

type TEditorProps = { target: TEditTarget; source: string; initialCheck: TDraftCheck };

/** The editor's state: the text, what was last saved and checked, and the two things it asks the server. */
function useDraftEditor(props: TEditorProps) {
  const router = useRouter();
  const [source, setSource] = useState(props.source);
  const [loadedHash, setLoadedHash] = useState(props.target.kind === "draft" ? props.target.contentHash : "");
  const [savedSource, setSavedSource] = useState(props.source);
  const [checked, setChecked] = useState<{ check: TDraftCheck; source: string }>({ check: props.initialCheck, source: props.source });
  const [message, setMessage] = useState<TMessage | null>(null);
  const [pending, startTransition] = useTransition();
  const dirty = source !== savedSource;
  useLeaveWarning(dirty);

  const check = async () => {
    const result = await checkDraftAction({ source });
    if (result.status === "ok") setChecked({ check: result.check, source });
    else setMessage({ tone: "error", text: failureText(result, WORDS) });
  };
  const save = async () => {
    const answer =
      props.target.kind === "draft" ? await saveDraftText(props.target, source, loadedHash) : await saveNewVersion(props.target, source);
    if (answer.check) setChecked({ check: answer.check, source });
    if (answer.savedHash) setLoadedHash(answer.savedHash);
    if (answer.message.tone === "ok") setSavedSource(source);
    setMessage(answer.message);
    // The new version is a draft of the person's own: its own editor, from its own content hash.
    if (answer.openHref) router.push(answer.openHref);
  };
  const run = (what: "check" | "save") =>
    startTransition(async () => {
      setMessage(null);
      try {
        await (what === "check" ? check() : save());
      } catch {
        setMessage({ tone: "error", text: "The server did not answer: nothing was saved. Your text is kept; try again." });
      }
    });
  return { source, setSource, checked, message, pending, dirty, run };
}

/** Selects line `line` of the textarea's text and puts the focus there. */
function selectLine(box: HTMLTextAreaElement | null, line: number) {
  if (!box) return;
  const lines = box.value.split("\n");
  const start = lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0);
  box.focus();
  box.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
}

export function DraftEditor(props: TEditorProps) {
  const editor = useDraftEditor(props);
  const textarea = useRef<HTMLTextAreaElement>(null);
  return (
    <form
      aria-label={props.target.kind === "draft" ? "Edit draft" : "Write a new version"}
      className="grid grid-cols-1 gap-4 lg:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        editor.run("save");
      }}
    >
      <div className="min-w-0 space-y-3">
        <SourceField ref={textarea} value={editor.source} onChange={editor.setSource} invalid={editor.checked.check.problems.length > 0} />
        <EditorButtons editor={editor} saveLabel={props.target.kind === "draft" ? "Save draft" : "Save as a new draft"} />
      </div>
      <div className="min-w-0 space-y-2">
        {editor.checked.source !== editor.source ? (
          <p className="rounded-md bg-slate-100 px-2.5 py-1.5 text-[12px] text-slate-700">
            The text has changed since this check: Check passages (or Save) to see what it makes now.
          </p>
        ) : null}
        <DraftCheck check={editor.checked.check} onLine={(line) => selectLine(textarea.current, line)} />
      </div>
    </form>
  );
}

function SourceField({
  ref,
  value,
  onChange,
  invalid,
}: {
  ref: React.Ref<HTMLTextAreaElement>;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
}) {
  return (
    <div>
      <label htmlFor="draft-source" className="mb-1 block text-[13px] font-medium text-slate-900">
        Markdown source
      </label>
      <textarea
        id="draft-source"
        ref={ref}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        rows={22}
        spellCheck
        aria-describedby="draft-source-help"
        aria-invalid={invalid}
        className="block w-full rounded-md border border-slate-300 bg-white px-2.5 py-2 font-mono text-[12.5px] leading-relaxed text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 aria-[invalid=true]:border-red-400"
      />
      <p id="draft-source-help" className="mt-1 text-[12px] text-slate-500">
        Front matter names the document; each heading starts a section, each paragraph or list is a passage. End a heading with{" "}
        <code className="font-mono">{"{audience=staff}"}</code> to keep its section from customers.
      </p>
    </div>
  );
}

function EditorButtons({ editor, saveLabel }: { editor: ReturnType<typeof useDraftEditor>; saveLabel: string }) {
  const { pending, message } = editor;
  return (
    <div className="flex flex-wrap items-center gap-3 border-t border-slate-100 pt-3">
      <button
        type="submit"
        disabled={pending}
        aria-busy={pending}
        className="inline-flex h-8 items-center rounded-md bg-indigo-600 px-3 text-[13px] font-medium text-white hover:bg-indigo-700 disabled:cursor-wait disabled:opacity-60"
      >
        {pending ? "Working…" : saveLabel}
      </button>
      <button
        type="button"
        onClick={() => editor.run("check")}
        disabled={pending}
        className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-50"
      >
        Check passages
      </button>
      <span className="text-[12px] text-slate-500">{editor.dirty ? "Unsaved changes" : "No unsaved changes"}</span>
      <p
        role="status"
        data-testid="draft-message"
        className={`min-w-0 basis-full text-[13px] ${message?.tone === "error" ? "text-red-700" : "text-emerald-700"}`}
      >
        {message?.text}
      </p>
    </div>
  );
}

const WORDS = {
  forbidden: "Your role may not edit documents: specialists, leads and admins may.",
  invalid: "The draft was refused as it was sent.",
  signedOut: "Nothing was saved; copy your text before signing in again.",
};

/** Asks before leaving the page while the box holds text that was not saved. */
function useLeaveWarning(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);
}

/** The parser's verdict on the text: its problems by line, or the passages it makes. */
export function DraftCheck({ check, onLine }: { check: TDraftCheck; onLine?: (line: number) => void }) {
  if (check.problems.length)
    return (
      <section aria-labelledby="draft-problems" className="rounded-md border border-red-200 bg-red-50 p-3">
        <h3 id="draft-problems" className="text-[13px] font-semibold text-red-900">
          {check.problems.length === 1
            ? "1 problem: nothing can be saved until it is fixed"
            : `${check.problems.length} problems: nothing can be saved until they are fixed`}
        </h3>
        <ul className="mt-1 space-y-1 text-[13px] text-red-900">
          {check.problems.map((p, i) => (
            <li key={i}>
              {p.line && onLine ? (
                <button
                  type="button"
                  onClick={() => onLine(p.line!)}
                  className="font-mono text-[12px] font-medium underline hover:no-underline"
                >
                  Line {p.line}
                </button>
              ) : p.line ? (
                <span className="font-mono text-[12px] font-medium">Line {p.line}</span>
              ) : null}
              {p.line ? ": " : ""}
              {p.message}
            </li>
          ))}
        </ul>
      </section>
    );
  const staff = check.passages.filter((p) => p.audience === "staff").length;
  return (
    <section aria-labelledby="draft-passages">
      <h3 id="draft-passages" className="text-[13px] font-semibold text-slate-900">
        It makes {check.passages.length} {check.passages.length === 1 ? "passage" : "passages"}
        {staff ? `, ${staff} of them for staff only` : ""}
      </h3>
      <ol className="mt-1 space-y-1.5">
        {check.passages.map((p, i) => (
          <li
            key={i}
            className={`rounded-md border p-2 text-[13px] ${p.audience === "staff" ? "border-amber-300 bg-amber-50" : "border-slate-200 bg-white"}`}
          >
            <div className="mb-0.5 flex flex-wrap items-center gap-2 text-[12px] text-slate-600">
              <span className="font-mono text-slate-500">§{i + 1}</span>
              <span className="font-medium text-slate-800">{p.heading}</span>
              <AudienceBadge audience={p.audience} />
            </div>
            <p className="text-slate-800">{p.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
