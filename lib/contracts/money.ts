// Money in words for a reader. Amounts are stored as integer cents, and a bare number is not an
// amount: every place that shows one to a person writes its currency beside it.

/** 7900, "USD" → "79.00 USD" (as the drafts write it, so a reader finds the same words everywhere). */
export function formatMoney(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

/** The currency of the amounts in the policy settings (the dial, the cap, the thresholds): the admin
 * form reads and writes them in it, and they are stored as its cents. */
export const SETTINGS_CURRENCY = "USD";
