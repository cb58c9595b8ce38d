import type { ReactNode } from "react";

export interface TChartTable {
  caption: string;
  columns: string[];
  rows: (string | number)[][];
}

/**
 * A chart's frame: its title and one line saying what it shows, the drawing (hidden from assistive
 * technology), and the same numbers as a visually hidden table that screen readers read instead.
 */
export function ChartFigure({
  id,
  title,
  description,
  table,
  empty,
  children,
}: {
  id: string;
  title: string;
  description: ReactNode;
  table: TChartTable;
  empty?: ReactNode;
  children: ReactNode;
}) {
  return (
    <figure aria-labelledby={`${id}-title`} className="relative flex min-w-0 flex-col rounded-lg border border-slate-200 bg-white">
      <figcaption className="border-b border-slate-100 px-4 py-2">
        <h2 id={`${id}-title`} className="text-[13px] font-semibold text-slate-900">
          {title}
        </h2>
        <p className="text-[12px] text-slate-500">{description}</p>
      </figcaption>
      <div className="flex-1 p-4">
        {empty ?? <div aria-hidden="true">{children}</div>}
        {empty ? null : (
          // The wrapper hides it: a table cannot shrink to sr-only's 1px and would widen the page.
          <div className="sr-only">
            <table>
              <caption>{table.caption}</caption>
              <thead>
                <tr>
                  {table.columns.map((c) => (
                    <th key={c} scope="col">
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row, i) => (
                  <tr key={i}>
                    {row.map((cell, j) =>
                      j === 0 ? (
                        <th key={j} scope="row">
                          {cell}
                        </th>
                      ) : (
                        <td key={j}>{cell}</td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </figure>
  );
}

/** "97.7%": one decimal, none when whole. */
export function formatShare(share: number): string {
  const pct = Math.round(share * 1000) / 10;
  return `${Number.isInteger(pct) ? pct.toFixed(0) : pct.toFixed(1)}%`;
}
