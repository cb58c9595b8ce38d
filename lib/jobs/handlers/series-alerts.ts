import { checkSeriesAlerts } from "../../eval/series-alerts";
import type { SERIES_ALERTS_JOB } from "../definitions/series-alerts";
import type { TJobInput } from "./job-input";

/** A series past its threshold today or yesterday → one alert, posted to the notification webhook. */
export async function seriesAlertsJob({ client }: TJobInput<typeof SERIES_ALERTS_JOB>): Promise<unknown> {
  const result = await checkSeriesAlerts({ client });
  return `${result.raised.length} raised, ${result.delivered} delivered`;
}
