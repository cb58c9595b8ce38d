"use client";
// The keyboard on the queue and the ticket page (keys in keyboard-shortcuts.ts). Rows marked
// `data-shortcut-row` are what j and k move through (focus moves, so Enter opens the row's link and
// the focus ring shows where one is); `data-shortcut-search` is what / focuses; on a ticket, a asks
// to confirm before it presses the button marked `data-shortcut="approve"`, r takes the person to
// the note a rejection needs, e to the reply. No key does anything while a field has the focus.
import { useEffect, useRef, useState } from "react";
import { CONFIRM_APPROVE_EVENT, SHORTCUTS, shortcutFor, type TShortcutScope } from "./keyboard-shortcuts";

function moveAmongRows(step: 1 | -1) {
  const rows = [...document.querySelectorAll<HTMLElement>("[data-shortcut-row]")];
  if (rows.length === 0) return;
  const at = rows.findIndex((row) => row === document.activeElement || row.contains(document.activeElement));
  const next = at === -1 ? (step === 1 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + step));
  rows[next]!.focus();
  rows[next]!.scrollIntoView({ block: "nearest" });
}

const approveButton = () => document.querySelector<HTMLButtonElement>('button[data-shortcut="approve"]');

export function KeyboardShortcuts({ scope }: { scope: TShortcutScope }) {
  const help = useRef<HTMLDialogElement>(null);
  const confirm = useRef<HTMLDialogElement>(null);
  const [approveWhat, setApproveWhat] = useState("");
  // Why a pressed key could not do its work: said, never silently ignored.
  const [notice, setNotice] = useState("");

  useEffect(() => {
    const askToConfirm = () => {
      const button = approveButton();
      if (!button || button.disabled) {
        const why = document.querySelector("[data-shortcut-why], [data-testid=blocked]")?.textContent?.trim();
        setNotice(button ? `Approve is not available here. ${why ?? ""}`.trim() : "Nothing on this page waits for an approval.");
        return;
      }
      setNotice("");
      setApproveWhat(button.dataset.confirm ?? "Approve this request?");
      confirm.current?.showModal();
    };
    const onKey = (event: KeyboardEvent) => {
      if (help.current?.open || confirm.current?.open) return;
      const does = shortcutFor(scope, event);
      if (!does) return;
      event.preventDefault();
      setNotice("");
      switch (does) {
        case "next":
        case "previous":
          moveAmongRows(does === "next" ? 1 : -1);
          return;
        case "search":
          document.querySelector<HTMLInputElement>("[data-shortcut-search]")?.focus();
          return;
        case "help":
          help.current?.showModal();
          return;
        case "approve":
          askToConfirm();
          return;
        case "reject":
          document.querySelector<HTMLInputElement>("#note:not(:disabled)")?.focus();
          return;
        case "edit":
          document.querySelector<HTMLTextAreaElement>("#editedReply:not(:disabled)")?.focus();
          return;
      }
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener(CONFIRM_APPROVE_EVENT, askToConfirm);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener(CONFIRM_APPROVE_EVENT, askToConfirm);
    };
  }, [scope]);

  return (
    <>
      <p
        role="status"
        data-testid="shortcut-notice"
        className={
          notice
            ? "fixed inset-x-4 bottom-4 z-50 mx-auto max-w-md rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-[13px] text-amber-900 shadow"
            : "sr-only"
        }
      >
        {notice}
      </p>
      <dialog
        ref={help}
        aria-labelledby="shortcuts-heading"
        className="m-auto w-[min(24rem,calc(100vw-2rem))] rounded-lg border border-slate-200 p-0 shadow-lg backdrop:bg-slate-900/30"
      >
        <div className="p-4">
          <h2 id="shortcuts-heading" className="text-[14px] font-semibold text-slate-900">
            Keyboard shortcuts
          </h2>
          <dl className="mt-3 space-y-1.5 text-[13px]">
            {SHORTCUTS[scope].map((s) => (
              <div key={s.key} className="flex items-center justify-between gap-3">
                <dt>
                  <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-[12px] text-slate-900">
                    {s.key}
                  </kbd>
                </dt>
                <dd className="text-right text-slate-700">{s.words}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-3 text-[12px] text-slate-600">Keys do nothing while you type in a field.</p>
          <form method="dialog" className="mt-3 flex justify-end">
            <button className="h-8 rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 hover:bg-slate-50">
              Close
            </button>
          </form>
        </div>
      </dialog>
      <dialog
        ref={confirm}
        aria-labelledby="confirm-approve-heading"
        className="m-auto w-[min(26rem,calc(100vw-2rem))] rounded-lg border border-slate-200 p-0 shadow-lg backdrop:bg-slate-900/30"
      >
        <form
          method="dialog"
          className="p-4"
          onSubmit={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            const button = approveButton();
            if (submitter?.value !== "approve" || !button) return;
            // Confirmed here: the button's own confirmation (a large refund) lets this click through.
            button.dataset.confirmed = "true";
            button.click();
          }}
        >
          <h2 id="confirm-approve-heading" className="text-[14px] font-semibold text-slate-900">
            Approve?
          </h2>
          <p className="mt-2 text-[13px] text-slate-700">{approveWhat}</p>
          <div className="mt-4 flex justify-end gap-2">
            <button
              value="cancel"
              autoFocus
              className="h-8 rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 hover:bg-slate-50"
            >
              Cancel
            </button>
            <button value="approve" className="h-8 rounded-md bg-emerald-700 px-3 text-[13px] font-medium text-white hover:bg-emerald-800">
              Approve
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
