import type { ReactNode } from "react";

/** A titled panel: the page's sections (the title is an h2 that names the region). */
export function Card({
  id,
  title,
  description,
  actions,
  children,
  bodyClassName = "p-4",
}: {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  bodyClassName?: string;
}) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white">
      <div className="flex items-center justify-between gap-3 border-b border-slate-100 px-4 py-2">
        <div className="min-w-0">
          <h2 id={id} className="text-[13px] font-semibold text-slate-900">
            {title}
          </h2>
          {description ? <div className="text-[12px] text-slate-500">{description}</div> : null}
        </div>
        {actions}
      </div>
      <div className={bodyClassName}>{children}</div>
    </section>
  );
}

/** One labelled value in a `<dl>`. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-3 py-1 text-[13px]">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 text-right wrap-anywhere text-slate-900">{children}</dd>
    </div>
  );
}
