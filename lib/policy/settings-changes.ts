// When each stored setting last changed and who changed it (settings never changed are at their
// defaults and have no row). The full history is in the audit trail as settings.changed events.
import { db as defaultDb, type Db } from "../db";
import type { TPolicySettings } from "./settings";

export type TSettingChange = { at: Date; by: { name: string; email: string } | null };

export async function loadSettingChanges(client: Db = defaultDb()): Promise<Partial<Record<keyof TPolicySettings, TSettingChange>>> {
  const rows = await client.setting.findMany({
    select: { key: true, updatedAt: true, updatedBy: { select: { name: true, email: true } } },
  });
  return Object.fromEntries(rows.map((r) => [r.key, { at: r.updatedAt, by: r.updatedBy }]));
}
