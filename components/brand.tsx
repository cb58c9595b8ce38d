import type { ReactNode } from "react";

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

/** A page for someone not signed in (sign-in, setting a password): the wordmark over one card with
 * the page's h1, and what goes under the card. */
export function SignedOutPage({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className="flex min-h-dvh items-start justify-center px-4 pt-[12vh] pb-10">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex justify-center">
          <Brand size="lg" />
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="text-base font-semibold text-slate-900">{title}</h1>
          {children}
        </div>
        {footer}
      </div>
    </main>
  );
}
