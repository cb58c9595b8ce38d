import { describe, expect, it } from "vitest";
import { DISCLOSURE_LOCALES, disclosedReply, disclosureLine } from "./disclosure";

const on = { enabled: true, locale: "en" as const, reviewer: null };

describe("the disclosure line", () => {
  it("is added to a reply the agent drafted, and recorded as carried", () => {
    expect(disclosedReply("Your refund is on its way.\n", { aiDrafted: true, settings: on })).toEqual({
      body: "Your refund is on its way.\n\nThis reply was drafted with the help of an automated assistant and reviewed by our support team.",
      disclosed: true,
    });
  });

  it("is not added when the setting is off, or to a reply a person wrote", () => {
    expect(disclosedReply("Hi", { aiDrafted: true, settings: { ...on, enabled: false } })).toEqual({ body: "Hi", disclosed: false });
    expect(disclosedReply("Hi", { aiDrafted: false, settings: on })).toEqual({ body: "Hi", disclosed: false });
  });

  it("is localised, and names the reviewer when one is set", () => {
    expect(disclosureLine({ locale: "de", reviewer: null })).toContain("automatisierten Assistenten");
    expect(disclosureLine({ locale: "fr", reviewer: "Acme Support" })).toMatch(/assistant automatisé.*Acme Support\.$/);
    const lines = DISCLOSURE_LOCALES.map((locale) => disclosureLine({ locale, reviewer: null }));
    expect(new Set(lines).size).toBe(DISCLOSURE_LOCALES.length);
  });
});
