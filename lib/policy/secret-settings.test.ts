import { describe, expect, it } from "vitest";
import { isSealed, openSetting, sealSetting, settingsCipherKey } from "./secret-settings";

const key = settingsCipherKey("a settings key for the tests, 32 characters or more");

describe("secret settings", () => {
  it("encrypt a value so that only the same key opens it, each time differently", () => {
    const sealed = sealSetting("notify.webhookSecret", "whsec_secret-value", key);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain("secret-value");
    expect(sealSetting("notify.webhookSecret", "whsec_secret-value", key)).not.toBe(sealed);
    expect(openSetting("notify.webhookSecret", sealed, key)).toBe("whsec_secret-value");
    expect(openSetting("notify.webhookSecret", sealed, settingsCipherKey("another settings key, 32 characters or more"))).toBe("");
  });

  it("bind a value to its setting: moved to another key, or altered, it does not open", () => {
    const sealed = sealSetting("notify.webhookSecret", "whsec_secret-value", key);
    expect(openSetting("notify.webhookUrl", sealed, key)).toBe("");
    const [iv, tag, body] = sealed.slice("enc:v1:".length).split(".") as [string, string, string];
    const flipped = Buffer.from(body, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    expect(openSetting("notify.webhookSecret", `enc:v1:${iv}.${tag}.${flipped.toString("base64url")}`, key)).toBe("");
  });

  it("read a value stored in plain text as it is, and keep an empty value empty", () => {
    expect(openSetting("notify.webhookUrl", "https://hooks.example.com/x", key)).toBe("https://hooks.example.com/x");
    expect(sealSetting("notify.webhookUrl", "", key)).toBe("");
  });
});
