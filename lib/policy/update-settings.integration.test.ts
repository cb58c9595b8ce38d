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
    expect(
      await refusalCode(
        updatePolicySettings({
          changes: { "policy.dailyCapCents": 1 },
          actor: { id: "00000000-0000-4000-8000-000000000002", role: "LEAD" },
        }),
      ),
    ).toBe("forbidden");
    await expect(
      updatePolicySettings({
        changes: { "autonomy.autoApproveLimitCents": -5 },
        actor: { id: "00000000-0000-4000-8000-000000000001", role: "ADMIN" },
      }),
    ).rejects.toThrow(/autoApproveLimitCents/);
    expect(
      await refusalCode(updatePolicySettings({ changes: { "autonomy.autoApproveLimitCents": 1 }, actor: { id: "x", role: "REVIEWER" } })),
    ).toBe("forbidden");
    expect(await client.auditEvent.count()).toBe(before);
    expect((await loadPolicySettings(client))["autonomy.autoApproveLimitCents"]).toBe(0);
  });

  it("refuses a change made against a version that is no longer in force, and writes nothing for no change", async () => {
    const { client } = testDb();
    const admin = await client.user.create({
      data: { email: "admin2@example.com", name: "Second admin", role: "ADMIN", passwordHash: "x" },
    });
    const actor = { id: admin.id, role: "ADMIN" as const };
    const shown = policyVersion(await loadPolicySettings(client));
    const first = await updatePolicySettings({ changes: { "policy.dailyCapCents": 30_100 }, actor, expectedPolicyVersion: shown });
    const events = await client.auditEvent.count();
    // A second form opened before the first change still shows the old version: refused, not merged.
    await expect(
      updatePolicySettings({ changes: { "policy.customerRefundsPerDay": 9 }, actor, expectedPolicyVersion: shown }),
    ).rejects.toMatchObject({ code: "stale" });
    const same = await updatePolicySettings({
      changes: { "policy.dailyCapCents": 30_100 },
      actor,
      expectedPolicyVersion: first.policyVersion,
    });
    expect(same).toMatchObject({ changed: [], policyVersion: first.policyVersion });
    expect(await client.auditEvent.count()).toBe(events);
    expect((await loadPolicySettings(client))["policy.customerRefundsPerDay"]).toBe(DEFAULT_SETTINGS["policy.customerRefundsPerDay"]);
  });

  describe("the default planner", () => {
    const NO_MODEL = {
      available: false,
      reason: "No model is configured: set LLM_BASE_URL (and LLM_MODEL) to an OpenAI-compatible endpoint.",
    } as const;
    const admin = async () => {
      const { client } = testDb();
      const email = "planner.admin@example.com";
      const data = { email, name: "Planner admin", role: "ADMIN" as const, passwordHash: "x" };
      const row = (await client.user.findFirst({ where: { email } })) ?? (await client.user.create({ data }));
      return { id: row.id, role: "ADMIN" as const };
    };
    const stored = async () => (await loadPolicySettings(testDb().client))["agent.defaultPlanner"];

    it("refuses the model planner as the default while no model is configured, saying what to set; nothing written, nothing audited", async () => {
      const { client } = testDb();
      const actor = await admin();
      const events = await client.auditEvent.count();
      const rows = await client.setting.count();
      const cap = (await loadPolicySettings(client))["policy.dailyCapCents"];
      const refusal = updatePolicySettings({
        changes: { "agent.defaultPlanner": "model", "policy.dailyCapCents": 41_000 },
        actor,
        modelPlanner: NO_MODEL,
      });
      await expect(refusal).rejects.toMatchObject({ code: "planner_unavailable", field: "agent.defaultPlanner" });
      await expect(updatePolicySettings({ changes: { "agent.defaultPlanner": "model" }, actor, modelPlanner: NO_MODEL })).rejects.toThrow(
        /LLM_BASE_URL/,
      );
      // A caller that did not say whether a model is configured cannot make it the default either.
      expect(await refusalCode(updatePolicySettings({ changes: { "agent.defaultPlanner": "model" }, actor }))).toBe("planner_unavailable");
      expect(await stored()).toBe("rule");
      expect((await loadPolicySettings(client))["policy.dailyCapCents"]).toBe(cap);
      expect(await client.setting.count()).toBe(rows);
      expect(await client.auditEvent.count()).toBe(events);
    });

    it("accepts the model planner as the default once a model is configured, audited, and the policy version stays", async () => {
      const { client } = testDb();
      const actor = await admin();
      const version = policyVersion(await loadPolicySettings(client));
      const model = { available: true } as const;
      const res = await updatePolicySettings({
        changes: { "agent.defaultPlanner": "model" },
        actor,
        modelPlanner: model,
        expectedPolicyVersion: version,
      });
      expect(res).toMatchObject({ changed: ["agent.defaultPlanner"], policyVersion: version, policyVersionBefore: version });
      expect(await stored()).toBe("model");
      const event = await client.auditEvent.findFirstOrThrow({ where: { action: "settings.changed", subjectId: "agent.defaultPlanner" } });
      expect(event.inputs).toEqual({ before: { "agent.defaultPlanner": "rule" }, after: { "agent.defaultPlanner": "model" } });

      // The model gone later: a save that leaves the planner as it is still goes through (it is no
      // change of the planner), and going back to the rule planner needs no model.
      const model5 = { "agent.defaultPlanner": "model", "policy.customerRefundsPerDay": 5 } as const;
      const kept = await updatePolicySettings({ changes: model5, actor, modelPlanner: NO_MODEL });
      expect(kept.changed).toEqual(["policy.customerRefundsPerDay"]);
      const rule3 = { "agent.defaultPlanner": "rule", "policy.customerRefundsPerDay": 3 } as const;
      const back = await updatePolicySettings({ changes: rule3, actor, modelPlanner: NO_MODEL });
      expect(back.changed).toEqual(["agent.defaultPlanner", "policy.customerRefundsPerDay"]);
      expect(back.policyVersion).toBe(version);
    });
  });

  it("writes nothing for a whole form that changes nothing: no row touched, no event, the same version", async () => {
    const { client } = testDb();
    const admin = await client.user.create({
      data: { email: "admin3@example.com", name: "Third admin", role: "ADMIN", passwordHash: "x" },
    });
    const actor = { id: admin.id, role: "ADMIN" as const };
    await updatePolicySettings({ changes: { "queue.slaHandoffHours": 30 }, actor });
    const settings = await loadPolicySettings(client);
    const rows = await client.setting.findMany({ orderBy: { key: "asc" } });
    const events = await client.auditEvent.count();
    const { "autonomy.autoApproveLimitCents": _dial, ...form } = settings;
    const res = await updatePolicySettings({
      changes: form,
      actor,
      expectedPolicyVersion: policyVersion(settings),
      modelPlanner: { available: true },
    });
    expect(res).toMatchObject({ changed: [], policyVersion: policyVersion(settings) });
    expect(await client.setting.findMany({ orderBy: { key: "asc" } })).toEqual(rows);
    expect(await client.auditEvent.count()).toBe(events);
  });
});
