// The app's list tables (queue, ledger, audit, evaluations, autonomy): a table from md up, a card a
// row below it. Below md the header row is hidden visually and each cell carries its column's name
// itself; the header row stays in the accessibility tree, so cells keep their column names for a
// screen reader at every width.
import type { ReactNode } from "react";

/** A column: its header, and `align: "right"` for a column of amounts or counts. */
export type TColumn = string | { label: string; align: "right" };

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(" ");

export function ResponsiveTable({
  caption,
  columns,
  wrapHeaders = false,
  children,
}: {
  /** Names the table for assistive technology (visually hidden). */
  caption: string;
  columns: readonly TColumn[];
  /** Let long headers wrap on a narrow desktop instead of widening the table. */
  wrapHeaders?: boolean;
  /** The rows: `CardRow`s of `Cell`s. */
  children: ReactNode;
}) {
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-left text-[13px]">
        <caption className="sr-only">{caption}</caption>
        <thead className="sr-only border-b border-slate-200 bg-slate-50 text-xs text-slate-500 md:not-sr-only md:table-header-group">
          <tr>
            {columns.map((column) => {
              const { label, align } = typeof column === "string" ? { label: column, align: undefined } : column;
              return (
                <th
                  key={label}
                  scope="col"
                  className={classes("px-3 py-2 font-medium", !wrapHeaders && "whitespace-nowrap", align === "right" && "text-right")}
                >
                  {label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

/** A row: a card of two columns below md (`className` may widen it, e.g. `sm:grid-cols-4`), a table
 * row from md. `className` also carries the row's background and hover. */
export function CardRow({ className, children }: { className?: string; children: ReactNode }) {
  return <tr className={classes("grid grid-cols-2 gap-x-3 gap-y-2 px-3 py-3 md:table-row md:p-0", className)}>{children}</tr>;
}

/**
 * A cell: padded as a table cell from md; below md, labelled with `label` above its content. A
 * row's header cell (`rowHeader`) is a `<th scope="row">`; give it no label when the card shows it
 * as its title.
 */
export function Cell({
  label,
  rowHeader = false,
  className,
  children,
}: {
  label?: string;
  rowHeader?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const content = (
    <>
      {label ? <CellLabel>{label}</CellLabel> : null}
      {children}
    </>
  );
  const cellClass = classes("md:px-3 md:py-2", className);
  return rowHeader ? (
    <th scope="row" className={cellClass}>
      {content}
    </th>
  ) : (
    <td className={cellClass}>{content}</td>
  );
}

/** A cell's column name, shown only below md. Hidden from assistive technology: the (visually
 * hidden) header row still names every cell. */
function CellLabel({ children }: { children: string }) {
  return (
    <span aria-hidden="true" className="mb-0.5 block text-[11px] font-medium text-slate-500 md:hidden">
      {children}
    </span>
  );
}

/**
 * A row's selection box as its first cell: named for assistive technology by `name`, shown with the
 * visible word `word` on a card below md. `onToggle` gets the new state and whether Shift was held
 * (for range selection).
 */
export function SelectCell({
  name,
  word,
  checked,
  disabled = false,
  onToggle,
}: {
  name: string;
  word: string;
  checked: boolean;
  disabled?: boolean;
  onToggle: (checked: boolean, shift: boolean) => void;
}) {
  return (
    <Cell className="col-span-2 md:w-10">
      <label className="inline-flex items-center gap-2 text-[12px] text-slate-600">
        <input
          type="checkbox"
          className="size-4"
          checked={checked}
          disabled={disabled}
          onChange={(event) => onToggle(event.target.checked, (event.nativeEvent as MouseEvent).shiftKey === true)}
        />
        <span className="sr-only">{name}</span>
        <span aria-hidden="true" className="md:hidden">
          {word}
        </span>
      </label>
    </Cell>
  );
}
