// What /api/health reports: the database answers and every migration in this build is applied.
import { db, dbKind } from "./index";
import { migrationNames } from "./migration-files";

export interface THealth {
  ok: boolean;
  database: { kind: "postgres" | "pglite"; reachable: boolean; error?: string };
  migrations: { current: boolean; pending: string[]; failed: string[] };
}

export async function checkHealth(): Promise<THealth> {
  const kind = dbKind();
  try {
    const rows = await db().$queryRaw<{ migration_name: string; finished_at: Date | null; rolled_back_at: Date | null }[]>`
      SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations`;
    const applied = new Set(rows.filter((r) => r.finished_at && !r.rolled_back_at).map((r) => r.migration_name));
    const failed = rows.filter((r) => !r.finished_at && !r.rolled_back_at).map((r) => r.migration_name);
    const pending = (await migrationNames()).filter((n) => !applied.has(n));
    const current = pending.length === 0 && failed.length === 0;
    return { ok: current, database: { kind, reachable: true }, migrations: { current, pending, failed } };
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    // A database without the migrations table is reachable but not migrated.
    const unmigrated = /_prisma_migrations/.test(message) && /does not exist/.test(message);
    return {
      ok: false,
      database: { kind, reachable: unmigrated, ...(unmigrated ? {} : { error: message }) },
      migrations: { current: false, pending: unmigrated ? await migrationNames() : [], failed: [] },
    };
  }
}
