import type { THoldReason } from "@/lib/contracts/reason-codes";

/** A release decision's outcome: eligible for shadow, or hold. */
export function ReleaseBadge({ outcome }: { outcome: string | null | undefined }) {
  if (!outcome) return <span className="text-slate-400">–</span>;
  const eligible = outcome === "eligible_for_shadow";
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${eligible ? "bg-emerald-50 text-emerald-800 ring-emerald-200" : "bg-amber-50 text-amber-900 ring-amber-200"}`}
    >
      {eligible ? "Eligible for shadow" : "Hold"}
      <code className="font-mono text-[11px] font-normal">{outcome}</code>
    </span>
  );
}

/** What each hold reason's prefix means (lib/eval/decide-release.ts), in words: a new hold reason
 * fails the typecheck here until it has them. */
const HOLD_PREFIXES: Readonly<Record<string, string>> = {
  agent_version: "The receipt names another agent version than the manifest pins",
  dataset_version: "The receipt names another dataset version than the manifest pins",
  dataset_drift: "The dataset graded is not the one the manifest pins (an episode removed, added or changed)",
  grader_version: "The receipt names another grader version than the manifest pins",
  missing: "Episodes missing from the receipt",
  duplicate: "Episodes graded more than once in a trial",
  unexpected: "Rows for episodes the dataset does not have",
  failed: "Episodes that failed",
} satisfies Record<THoldReason, string>;

/** The hold reasons whose detail is a list of episode ids. */
const EPISODE_LISTS: readonly string[] = ["missing", "duplicate", "unexpected", "failed"] satisfies THoldReason[];

/** A hold reason: its meaning in words, then the exact reason; a long list of episodes folds away. */
export function HoldReason({ reason }: { reason: string | null }) {
  if (!reason) return <span className="text-slate-500">Every row passed; the receipt matches what is pinned.</span>;
  const colon = reason.indexOf(":");
  const prefix = colon > 0 ? reason.slice(0, colon) : reason;
  const rest = colon > 0 ? reason.slice(colon + 1) : "";
  const words = HOLD_PREFIXES[prefix];
  const items = EPISODE_LISTS.includes(prefix) ? rest.split(",").filter(Boolean) : [];
  if (items.length > 6) {
    return (
      <details className="min-w-0">
        <summary className="cursor-pointer">
          {words ?? prefix}: {items.length} episodes <code className="font-mono text-[11px] text-slate-500">{prefix}:…</code>
        </summary>
        <code className="mt-1 block max-h-40 overflow-auto font-mono text-[11px] break-all text-slate-600">{reason}</code>
      </details>
    );
  }
  return (
    <span className="min-w-0">
      {words ? `${words}: ` : null}
      <code className="font-mono text-[12px] break-all text-slate-700">{words ? rest : reason}</code>
    </span>
  );
}
