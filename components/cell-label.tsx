/**
 * A cell's column name, shown only below md where a table's header row is visually hidden and each
 * row is laid out as a card. Hidden from assistive technology: the (visually hidden) header row
 * still names every cell.
 */
export function CellLabel({ children }: { children: string }) {
  return (
    <span aria-hidden="true" className="mb-0.5 block text-[11px] font-medium text-slate-500 md:hidden">
      {children}
    </span>
  );
}
