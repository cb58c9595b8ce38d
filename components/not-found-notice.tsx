import Link from "next/link";

/** The 404 page's body: what happened, and the way back. The page around it supplies the one <main>. */
export function NotFoundNotice() {
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <title>Not found · Countersign</title>
      <p className="text-xs font-semibold tracking-wider text-slate-500 uppercase">Error 404</p>
      <h1 className="mt-2 text-xl font-semibold tracking-tight text-slate-900">Page not found</h1>
      <p className="mt-2 text-[13px] text-slate-600">There is nothing at this address.</p>
      <Link href="/" className="mt-6 inline-flex h-9 items-center rounded-md bg-indigo-600 px-4 text-sm font-medium text-white shadow-xs hover:bg-indigo-700">
        Back to the queue
      </Link>
    </div>
  );
}
