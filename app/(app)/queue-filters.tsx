import Form from "next/form";
import Link from "next/link";
import { REASON_LABELS, STATUS_LABELS, STATUS_OF_REASON, STOP_REASONS, STOP_STATUSES } from "@/lib/contracts/reason-codes";
import { UNRESOLVED_STATUSES, type TQueueStatusFilter } from "@/lib/queue/list-tickets";

// Reasons grouped under the status they end a run with (a status without reasons has no group).
const REASON_GROUPS = STOP_STATUSES.map((status) => ({
  status,
  reasons: STOP_REASONS.filter((r) => STATUS_OF_REASON[r] === status),
})).filter((g) => g.reasons.length > 0);

const FIELD = "block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-[13px] text-slate-900 sm:w-auto";

/**
 * The queue's filters as a plain GET form: the URL holds the filters (shareable, back button works),
 * and it works before JavaScript loads. With JavaScript, next/form navigates without a full reload.
 * Applied with a button rather than on change, so moving through a select with the keyboard never
 * reloads the list under the reader.
 */
export function QueueFilters({ status, reason }: { status?: TQueueStatusFilter; reason?: string }) {
  const filtered = Boolean(status || reason);
  return (
    <Form action="/" role="search" aria-label="Filter the queue" className="mb-3 flex flex-wrap items-end gap-3">
      <div className="w-full sm:w-auto">
        <label htmlFor="queue-status" className="mb-1 block text-[12px] font-medium text-slate-600">
          Status
        </label>
        <select id="queue-status" name="status" defaultValue={status ?? ""} className={FIELD}>
          <option value="">New, needs a person, blocked or bypassed</option>
          <option value="all">Every unresolved ticket</option>
          {UNRESOLVED_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]} ({s})
            </option>
          ))}
        </select>
      </div>
      <div className="w-full sm:w-auto">
        <label htmlFor="queue-reason" className="mb-1 block text-[12px] font-medium text-slate-600">
          Reason
        </label>
        <select id="queue-reason" name="reason" defaultValue={reason ?? ""} className={FIELD}>
          <option value="">Any reason</option>
          {REASON_GROUPS.map(({ status: s, reasons }) => (
            <optgroup key={s} label={STATUS_LABELS[s]}>
              {reasons.map((r) => (
                <option key={r} value={r}>
                  {REASON_LABELS[r]} ({r})
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </div>
      <div className="flex items-center gap-3">
        <button type="submit" className="rounded-md bg-slate-900 px-3 py-1.5 text-[13px] font-medium text-white hover:bg-slate-800">
          Apply filters
        </button>
        {filtered ? (
          <Link href="/" className="text-[13px] font-medium text-indigo-700 hover:underline">
            Clear filters
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
