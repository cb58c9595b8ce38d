import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { requireRole } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Queue" };

const COLUMNS = ["Ticket", "Customer", "Status", "Reason", "Proposed refund", "Waiting"];

export default async function QueuePage() {
  await requireRole("queue");
  return (
    <>
      <PageHeader title="Queue" description="Tickets waiting for a person: drafts to countersign, refunds to approve, hand-offs to resolve." />
      <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
        <table className="w-full text-left text-[13px]">
          {/* On a phone the columns would not fit; the rows will carry their own labels there. */}
          <thead className="hidden border-b border-slate-200 bg-slate-50 text-xs text-slate-500 md:table-header-group">
            <tr>
              {COLUMNS.map((c) => (
                <th key={c} scope="col" className="px-3 py-2 font-medium">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <td colSpan={COLUMNS.length} className="px-3 py-12 text-center">
                <p className="text-sm font-medium text-slate-900">Nothing is waiting for you</p>
                <p className="mt-1 text-[13px] text-slate-500">
                  The live queue arrives in a later release. Tickets the agent hands to a person will be listed here, oldest first.
                </p>
              </td>
            </tr>
          </tbody>
        </table>
      </div>
    </>
  );
}
