/** The wordmark: a countersigned tick in a square, and the name. */
export function Brand({ size = "sm" }: { size?: "sm" | "lg" }) {
  const box = size === "lg" ? "size-8" : "size-6";
  return (
    <span className="inline-flex items-center gap-2 font-semibold tracking-tight text-slate-900">
      <svg viewBox="0 0 24 24" aria-hidden="true" className={`${box} shrink-0 rounded-md bg-indigo-600 p-1 text-white`}>
        <path d="M5 12.5l4 4 10-10" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className={size === "lg" ? "text-lg" : "text-[15px]"}>Countersign</span>
    </span>
  );
}
