// In-memory databases from the cached files (migrated-template.ts) start with IN_MEMORY_SETTINGS: at
// PostgreSQL's default of 128 MB of shared buffers, zeroing them was most of opening each test file's
// database. A caller's own start parameters still decide.
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { migratedPglite, removeSeeded, seededPglite } from "./migrated-template";
import { IN_MEMORY_SETTINGS, withSettings } from "./pglite";

async function sharedBuffers(pglite: PGlite): Promise<string> {
  const { rows } = await pglite.query<{ shared_buffers: string }>("SHOW shared_buffers");
  await pglite.close();
  return rows[0]!.shared_buffers;
}

const run = `template-test-${randomBytes(4).toString("hex")}`;
afterAll(() => removeSeeded(run));

describe("in-memory databases from the cached files", () => {
  it("start with the in-memory settings, from the template and from a seeded file", async () => {
    expect(await sharedBuffers(await migratedPglite())).toBe(IN_MEMORY_SETTINGS.shared_buffers);
    const seed = async (pglite: PGlite) => void (await pglite.exec(`CREATE TABLE seeded_probe (id int)`));
    // The first call seeds and keeps the file; the second loads it.
    expect(await sharedBuffers(await seededPglite(run, "probe", seed))).toBe(IN_MEMORY_SETTINGS.shared_buffers);
    const loaded = await seededPglite(run, "probe", () => Promise.reject(new Error("seeded again")));
    expect((await loaded.query("SELECT count(*)::int AS n FROM seeded_probe")).rows).toEqual([{ n: 0 }]);
    expect(await sharedBuffers(loaded)).toBe(IN_MEMORY_SETTINGS.shared_buffers);
  });

  it("start with the caller's parameters when it gives them", async () => {
    expect(await sharedBuffers(await migratedPglite({ startParams: withSettings({ shared_buffers: "16MB" }) }))).toBe("16MB");
    expect(await sharedBuffers(await migratedPglite({ startParams: PGlite.defaultStartParams }))).toBe("128MB");
  });
});
