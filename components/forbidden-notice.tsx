import Link from "next/link";

/** An error page's body: what happened, and the way back to the queue. The page around it supplies the one <main>. */
export function ErrorNotice({ code, title, children }: { code: 403 | 404; title: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <p className="text-xs font-semibold tracking-wider text-slate-500 uppercase">Error {code}</p>
      <h1 className="mt-2 text-xl font-semibold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-2 text-[13px] text-slate-600">{children}</p>
      <Link
        href="/"
        className="mt-6 inline-flex h-9 items-center rounded-md bg-indigo-600 px-4 text-sm font-medium text-white shadow-xs hover:bg-indigo-700"
      >
        Back to the queue
      </Link>
    </div>
  );
}

/** The 403 page's body. */
export function ForbiddenNotice() {
  return (
    <ErrorNotice code={403} title="403 – Not allowed">
      Your role does not give you access to this page. If you need it, ask an admin.
    </ErrorNotice>
  );
}
