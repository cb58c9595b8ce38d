import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { loadPolicySettings, policyVersion, DEFAULT_SETTINGS } from "./settings";
import { updatePolicySettings } from "./update-settings";
import { refusalCode } from "../../testing/refusals";

const testDb = useTestDb();

describe("updatePolicySettings", () => {
  it("writes the change with its audit event and a new policy version", async () => {
    const { client } = testDb();
    const admin = await client.user.create({ data: { email: "admin@example.com", name: "Admin", role: "ADMIN", passwordHash: "x" } });
    const res = await updatePolicySettings({ changes: { "policy.dailyCapCents": 20_000 }, actor: { id: admin.id, role: "ADMIN" } });
    expect(res.changed).toEqual(["policy.dailyCapCents"]);
    expect(res.policyVersion).not.toBe(policyVersion(DEFAULT_SETTINGS));
    expect((await loadPolicySettings(client))["policy.dailyCapCents"]).toBe(20_000);
    const event = await client.auditEvent.findFirstOrThrow({ where: { action: "settings.changed" } });
    expect(event.actorId).toBe(admin.id);
    expect(event.inputs).toEqual({ before: { "policy.dailyCapCents": 50_000 }, after: { "policy.dailyCapCents": 20_000 } });
  });

  it("refuses a role that may not change a setting, and an invalid value, changing nothing", async () => {
    const { client } = testDb();
    const before = await client.auditEvent.count();
    expect(await refusalCode(updatePolicySettings({ changes: { "policy.dailyCapCents": 1 }, actor: { id: "00000000-0000-4000-8000-000000000002", role: "LEAD" } }))).toBe("forbidden");
    await expect(updatePolicySettings({ changes: { "autonomy.autoApproveLimitCents": -5 }, actor: { id: "00000000-0000-4000-8000-000000000001", role: "ADMIN" } })).rejects.toThrow(/autoApproveLimitCents/);
    expect(await refusalCode(updatePolicySettings({ changes: { "autonomy.autoApproveLimitCents": 1 }, actor: { id: "x", role: "REVIEWER" } }))).toBe("forbidden");
    expect(await client.auditEvent.count()).toBe(before);
    expect((await loadPolicySettings(client))["autonomy.autoApproveLimitCents"]).toBe(0);
  });

  it("refuses a change made against a version that is no longer in force, and writes nothing for no change", async () => {
    const { client } = testDb();
    const admin = await client.user.create({ data: { email: "admin2@example.com", name: "Second admin", role: "ADMIN", passwordHash: "x" } });
    const actor = { id: admin.id, role: "ADMIN" as const };
    const shown = policyVersion(await loadPolicySettings(client));
    const first = await updatePolicySettings({ changes: { "policy.dailyCapCents": 30_100 }, actor, expectedPolicyVersion: shown });
    const events = await client.auditEvent.count();
    // A second form opened before the first change still shows the old version: refused, not merged.
    await expect(updatePolicySettings({ changes: { "policy.customerRefundsPerDay": 9 }, actor, expectedPolicyVersion: shown })).rejects.toMatchObject({ code: "stale" });
    const same = await updatePolicySettings({ changes: { "policy.dailyCapCents": 30_100 }, actor, expectedPolicyVersion: first.policyVersion });
    expect(same).toMatchObject({ changed: [], policyVersion: first.policyVersion });
    expect(await client.auditEvent.count()).toBe(events);
    expect((await loadPolicySettings(client))["policy.customerRefundsPerDay"]).toBe(DEFAULT_SETTINGS["policy.customerRefundsPerDay"]);
  });
});
