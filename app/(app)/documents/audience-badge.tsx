import type { PassageAudience } from "@/generated/prisma/enums";

const WORDS = {
  customer: { text: "Customers may read", tone: "bg-slate-100 text-slate-700 ring-slate-200" },
  staff: { text: "Staff only", tone: "bg-amber-100 text-amber-900 ring-amber-300" },
} satisfies Record<PassageAudience, { text: string; tone: string }>;

/** Who a passage is for, in words with its code: a staff-only passage is cited to reviewers, never sent to a customer. */
export function AudienceBadge({ audience }: { audience: PassageAudience }) {
  const { text, tone } = WORDS[audience];
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-[11px] font-medium ring-1 ring-inset ${tone}`}>
      {text}
      <code className="font-mono font-normal">{audience}</code>
    </span>
  );
}
