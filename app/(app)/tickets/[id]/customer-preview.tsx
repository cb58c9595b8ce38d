"use client";
import { useId } from "react";
import { customerReply } from "@/lib/contracts/customer-reply";

/**
 * The reply as the customer will read it, live beside the text a person edits: citations are for the
 * person, and customerReply takes them out of every message sent, so the person sees that text.
 * `when` says when it is sent ("sent on approval").
 */
export function CustomerPreview({ reply, when }: { reply: string; when: string }) {
  const id = useId();
  return (
    <div>
      <h3 id={id} className="text-[12px] font-medium text-slate-700">
        What the customer receives <span className="font-normal text-slate-500">({when}; citations are for you, not them)</span>
      </h3>
      <p
        aria-labelledby={id}
        data-testid="customer-text"
        className="mt-1 min-h-9 whitespace-pre-wrap break-words rounded-md border border-slate-200 bg-slate-50 p-2 text-[13px] leading-relaxed text-slate-800"
      >
        {customerReply(reply)}
      </p>
    </div>
  );
}
