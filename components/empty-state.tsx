import type { ReactNode } from "react";

/** What a list or a page shows when there is nothing (yet): a calm box, a title, one line. */
export function EmptyState({ title, children, icon }: { title: string; children?: ReactNode; icon?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      {icon ? <div className="mb-3 text-slate-400">{icon}</div> : null}
      <p className="text-sm font-medium text-slate-900">{title}</p>
      {children ? <div className="mt-1 max-w-md text-[13px] text-slate-500">{children}</div> : null}
    </div>
  );
}
