// Formatting shared by the console's tables. Pure and locale-fixed, so a server render and the
// browser's re-render of the same data produce the same text.

const AMOUNT = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 7900, "USD" → "79.00 USD". */
export function formatAmount(cents: number, currency: string): string {
  return `${AMOUNT.format(cents / 100)} ${currency}`;
}

/** How long something has waited, coarsely: "<1 min", "12 min", "3 h", "2 d". */
export function formatAge(since: Date | string, now: Date | string): string {
  const ms = new Date(now).getTime() - new Date(since).getTime();
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "<1 min";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/** "2026-11-22 14:03:05 UTC": one zone for everyone reading an audit trail together. */
export function formatUtc(at: Date | string, precision: "minute" | "second" = "second"): string {
  const iso = new Date(at).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, precision === "minute" ? 16 : 19)} UTC`;
}
