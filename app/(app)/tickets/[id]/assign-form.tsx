"use client";
import { useActionState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import { formMessage } from "@/components/action-message";
import { assignTicketAction } from "./actions";

type TState = TActionResult<{ assigneeId: string | null; changed: boolean }> | null;

const BUTTON =
  "inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-700 shadow-xs hover:bg-slate-50 disabled:cursor-wait disabled:opacity-60";

/** Who works the ticket: claim it, give it to someone, or give it back. One form, the button says which. */
export function AssignForm(props: {
  ticketId: string;
  assignee: { id: string; name: string } | null;
  me: string;
  mayClaim: boolean;
  resolved: boolean;
  people: { id: string; name: string; role: string }[];
}) {
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => assignTicketAction(form), null);
  const shown = formMessage(state, (ok) => (ok.changed ? { tone: "ok", text: "Saved." } : null), {
    forbidden: "Your role may not assign tickets.",
    invalid: "Choose an active person who works tickets.",
  });
  const mine = props.assignee?.id === props.me;
  // A claim takes only an unassigned ticket (assign-ticket.ts refuses one someone else holds):
  // taking over another person's ticket is an assignment, which says whose it becomes.
  const heldByOther = !!props.assignee && !mine;
  return (
    <form action={action} aria-label="Assignee" className="space-y-3">
      <input type="hidden" name="ticketId" value={props.ticketId} />
      <p className="text-[13px] text-slate-800" data-testid="assignee">
        {props.assignee ? (
          <>
            Assigned to <span className="font-medium">{props.assignee.name}</span>
            {mine ? " (you)" : ""}
          </>
        ) : (
          <span className="text-slate-500">Unassigned</span>
        )}
      </p>
      {heldByOther && !props.resolved ? (
        <p className="text-[12px] text-slate-600" data-testid="held-by">
          {props.assignee!.name} holds this ticket, so it cannot be claimed.{" "}
          {props.mayClaim ? "To take it over or hand it on" : "To hand it on"}, assign it below.
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {props.mayClaim && !props.assignee && !props.resolved ? (
          <button type="submit" name="change" value="claim" disabled={pending} className={BUTTON}>
            Claim this ticket
          </button>
        ) : null}
        {props.assignee ? (
          <button type="submit" name="change" value="unassign" disabled={pending} className={BUTTON}>
            Unassign
          </button>
        ) : null}
      </div>
      {props.resolved ? null : (
        <div className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor="assign-to" className="block text-[12px] font-medium text-slate-700">
              Assign to
            </label>
            <select
              id="assign-to"
              name="assigneeId"
              defaultValue=""
              className="mt-1 block h-8 rounded-md border border-slate-300 bg-white px-2 text-[13px]"
            >
              <option value="" disabled>
                Choose a person
              </option>
              {props.people.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({p.role.toLowerCase()})
                </option>
              ))}
            </select>
          </div>
          <button type="submit" name="change" value="assign" disabled={pending} className={BUTTON}>
            Assign
          </button>
        </div>
      )}
      <p aria-live="polite" className={`min-h-5 text-[13px] ${shown?.tone === "ok" ? "text-emerald-700" : "text-red-700"}`}>
        {shown?.text ?? null}
      </p>
    </form>
  );
}
