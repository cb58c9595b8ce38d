import Form from "next/form";
import Link from "next/link";
import { SEARCH_MAX_LENGTH } from "@/lib/queue/search-terms";

/** Search every ticket, resolved ones included: a plain GET form, so a search is a shareable address. */
export function QueueSearch({ q }: { q?: string }) {
  return (
    <Form action="/" role="search" aria-label="Search tickets" className="mb-3 flex flex-wrap items-end gap-3">
      <div className="w-full sm:w-96">
        <label htmlFor="queue-q" className="mb-1 block text-[12px] font-medium text-slate-600">
          Search tickets
        </label>
        <input
          id="queue-q"
          name="q"
          data-shortcut-search
          type="search"
          defaultValue={q ?? ""}
          maxLength={SEARCH_MAX_LENGTH}
          placeholder="Number, words, customer email or order id"
          className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-[13px] text-slate-900"
        />
      </div>
      <div className="flex items-center gap-3">
        <button type="submit" className="rounded-md bg-slate-900 px-3 py-1.5 text-[13px] font-medium text-white hover:bg-slate-800">
          Search
        </button>
        {q ? (
          <Link href="/" className="text-[13px] font-medium text-indigo-700 hover:underline">
            Clear search
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
