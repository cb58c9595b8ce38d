import type { ReactNode } from "react";

/**
 * A form's last row: its primary button (busy while the action runs, with the words for it) and the
 * status line the action's answer is read out in.
 */
export function SubmitRow(props: {
  pending: boolean;
  label: string;
  busyLabel: string;
  testId: string;
  tone?: "ok" | "error";
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3 border-t border-slate-100 pt-3">
      <button
        type="submit"
        disabled={props.pending}
        aria-busy={props.pending}
        className="inline-flex h-8 items-center rounded-md bg-indigo-600 px-3 text-[13px] font-medium text-white hover:bg-indigo-700 disabled:cursor-wait disabled:opacity-60"
      >
        {props.pending ? props.busyLabel : props.label}
      </button>
      <p
        role="status"
        data-testid={props.testId}
        className={`min-w-0 flex-1 text-[13px] ${props.tone === "error" ? "text-red-700" : "text-emerald-700"}`}
      >
        {props.children}
      </p>
    </div>
  );
}
