// The thresholds form: one field per daily series, empty for none, in the unit the page shows
// (a refunded total in USD, stored in cents). Shared by the form and its action.
import { z } from "zod";
import { SERIES, SERIES_KEYS, type TSeriesKey } from "@/lib/contracts/daily-series";

if (typeof window !== "undefined") z.config({ jitless: true });

/** What a field reads in: cents are typed as USD. */
export const fieldUnit = (key: TSeriesKey) => (SERIES[key].unit === "cents" ? "usd" : SERIES[key].unit);

const ZThreshold = z
  .string()
  .trim()
  .max(20)
  .regex(/^(\d{1,12}(\.\d{1,4})?)?$/, "Enter a number of 0 or more, or leave it empty.")
  .transform((text) => (text === "" ? undefined : Number(text)));

export const ZSeriesThresholdsForm = z
  .strictObject(
    Object.fromEntries(SERIES_KEYS.map((k) => [k, ZThreshold.optional()])) as Record<TSeriesKey, z.ZodOptional<typeof ZThreshold>>,
  )
  .transform((form) => {
    const thresholds: Partial<Record<TSeriesKey, number>> = {};
    for (const key of SERIES_KEYS) {
      const value = form[key];
      if (value !== undefined) thresholds[key] = SERIES[key].unit === "cents" ? Math.round(value * 100) : value;
    }
    return thresholds;
  });

/** A stored threshold as the field shows it. */
export function thresholdText(key: TSeriesKey, value: number | undefined): string {
  if (value === undefined) return "";
  return SERIES[key].unit === "cents" ? (value / 100).toFixed(2) : String(value);
}
