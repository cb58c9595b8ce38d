import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "@/lib/policy/settings";
import { centsToUsd, PLANNER_LABELS, plannerOptionLabel, settingsToValues, ZPolicySettingsForm } from "./settings-fields";

const form = (changes: Record<string, string> = {}) => ({ ...settingsToValues(DEFAULT_SETTINGS), policyVersion: "v", ...changes });

describe("admin settings form", () => {
  it("shows cents as USD and reads them back without losing a cent", () => {
    expect(centsToUsd(50_000)).toBe("500.00");
    expect(centsToUsd(7)).toBe("0.07");
    const parsed = ZPolicySettingsForm.parse(form());
    // The dial moves on the Autonomy page, the series' thresholds on the Daily series page.
    const { "autonomy.autoApproveLimitCents": _dial, "watch.thresholds": _thresholds, ...editable } = DEFAULT_SETTINGS;
    expect(parsed).toEqual({ expectedPolicyVersion: "v", settings: editable });
    for (const [text, cents] of [
      ["0.29", 29],
      ["1,250.5", 125_050],
      ["$ 19.99", 1999],
      ["650", 65_000],
    ] as const) {
      expect(ZPolicySettingsForm.parse(form({ dailyCapUsd: text })).settings["policy.dailyCapCents"]).toBe(cents);
    }
  });

  it("never edits the autonomy dial: a submitted value is ignored", () => {
    const parsed = ZPolicySettingsForm.parse({ ...form(), autoApproveLimitUsd: "10000.00" });
    expect(parsed.settings).not.toHaveProperty("autonomy.autoApproveLimitCents");
  });

  it("names the field of every bad value", () => {
    const result = ZPolicySettingsForm.safeParse(
      form({
        dailyCapUsd: "12.345",
        specialistThresholdUsd: "0",
        customerRefundsPerDay: "1.5",
        defaultPlanner: "gpt",
        publishRole: "OWNER",
      }),
    );
    expect(result.success).toBe(false);
    const fields = result.error!.issues.map((i) => i.path[0]).sort();
    expect(fields).toEqual(["customerRefundsPerDay", "dailyCapUsd", "defaultPlanner", "publishRole", "specialistThresholdUsd"]);
    expect(ZPolicySettingsForm.parse(form({ publishRole: "SPECIALIST" })).settings["documents.publishRole"]).toBe("SPECIALIST");
  });

  it("names the model planner unavailable where it cannot run, and the rule planner as always", () => {
    const none = { available: false, reason: "No model is configured." } as const;
    expect(plannerOptionLabel("model", none)).toBe("Model planner (unavailable)");
    expect(plannerOptionLabel("model", { available: true })).toBe(PLANNER_LABELS.model);
    expect(plannerOptionLabel("rule", none)).toBe(PLANNER_LABELS.rule);
  });
});
