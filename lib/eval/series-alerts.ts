// Alerts on the daily series: a day whose value is past its series' threshold (the setting
// `watch.thresholds`; past means above, or below for a series where less is the worry) is recorded
// once, a SeriesAlert row unique per series and day, so evaluating the same crossing again raises
// nothing. Each recorded alert is posted to the notification webhook (the one that announces
// approvals, signed the same way) until it is taken; one that fails stays unposted and the next
// evaluation tries again with the same webhook-id. With no webhook configured the alerts are still
// recorded, and shown on the Daily page. Today and yesterday are evaluated: yesterday's last minutes
// are not lost to the schedule.
import { SERIES, type TSeriesKey } from "../contracts/daily-series";
import { db as defaultDb, Prisma, type Db } from "../db";
import { appBaseUrl } from "../env";
import { loadNotificationSettings, NOTIFY_URL_KEY } from "../policy/notification-settings";
import { loadPolicySettings } from "../policy/settings";
import { postNotification } from "../approvals/post-notification";
import { readDailySeries } from "./daily-series";

/** Alerts older than this are not posted any more (a webhook configured later is not flooded). */
const POST_WITHIN_MS = 2 * 86_400_000;

export interface TSeriesAlert {
  id: string;
  series: TSeriesKey;
  day: string;
  value: number;
  threshold: number;
}

/** Whether a day's value is past the threshold, in the direction the series worries about. */
export function isPast(series: TSeriesKey, value: number, threshold: number): boolean {
  return SERIES[series].alertWhen === "above" ? value > threshold : value < threshold;
}

export function seriesAlertWebhookId(alertId: string): string {
  return `series-alert_${alertId}`;
}

/** The message: Slack reads `text`; other receivers may read the same facts under `countersign`. */
export function seriesAlertBody(alert: TSeriesAlert, baseUrl: string) {
  const info = SERIES[alert.series];
  const url = `${baseUrl}/evals/daily`;
  const side = info.alertWhen === "above" ? "above" : "below";
  return {
    text: `Daily series alert: ${info.label} was ${alert.value} on ${alert.day}, ${side} its threshold of ${alert.threshold}. <${url}|Open the daily series>`,
    countersign: { event: "series.threshold_crossed", series: alert.series, day: alert.day, value: alert.value, threshold: alert.threshold, url },
  };
}

/** Records today's and yesterday's crossings (each once) and posts every alert not yet taken. */
export async function checkSeriesAlerts(input: { now?: Date; client?: Db } = {}): Promise<{ raised: TSeriesAlert[]; delivered: number }> {
  const client = input.client ?? defaultDb();
  const now = input.now ?? new Date();
  const thresholds = (await loadPolicySettings(client))["watch.thresholds"];
  const keys = Object.keys(thresholds) as TSeriesKey[];
  const crossings: Omit<TSeriesAlert, "id">[] = [];
  if (keys.length > 0) {
    const { days, values } = await readDailySeries({ days: 2, now, only: keys, client });
    for (const series of keys) {
      const threshold = thresholds[series]!;
      days.forEach((day, i) => {
        const value = values[series][i];
        if (value !== null && value !== undefined && isPast(series, value, threshold)) crossings.push({ series, day, value, threshold });
      });
    }
  }
  // "createdAt" is UTC without a time zone: written as one, never as a timestamptz the session would shift.
  const stamp = now.toISOString().slice(0, 23).replace("T", " ");
  const raised = crossings.length
    ? await client.$queryRaw<TSeriesAlert[]>(Prisma.sql`
        INSERT INTO "SeriesAlert" (id, series, day, value, threshold, "createdAt")
        VALUES ${Prisma.join(crossings.map((c) => Prisma.sql`(gen_random_uuid(), ${c.series}, ${c.day}, ${c.value}, ${c.threshold}, ${stamp}::timestamp)`))}
        ON CONFLICT (series, day) DO NOTHING
        RETURNING id::text, series, day, value, threshold`)
    : [];
  return { raised, delivered: await postPendingAlerts(client, now) };
}

async function postPendingAlerts(client: Db, now: Date): Promise<number> {
  const settings = await loadNotificationSettings(client);
  if (!settings[NOTIFY_URL_KEY]) return 0;
  const pending = await client.seriesAlert.findMany({
    where: { notifiedAt: null, createdAt: { gte: new Date(now.getTime() - POST_WITHIN_MS) } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  let delivered = 0;
  for (const alert of pending) {
    const body = seriesAlertBody({ ...alert, series: alert.series as TSeriesKey }, appBaseUrl());
    await postNotification({ settings, id: seriesAlertWebhookId(alert.id), body, what: "series alert" });
    await client.seriesAlert.update({ where: { id: alert.id }, data: { notifiedAt: new Date() } });
    delivered++;
  }
  return delivered;
}

/** The most recent alerts, for the Daily page. */
export async function listSeriesAlerts(input: { take?: number; client?: Db } = {}) {
  const client = input.client ?? defaultDb();
  const rows = await client.seriesAlert.findMany({ orderBy: [{ day: "desc" }, { series: "asc" }], take: input.take ?? 20 });
  return rows.map((r) => ({ ...r, series: r.series as TSeriesKey }));
}
