import { describe, expect, it } from "vitest";
import { ZPublishInput } from "./publish-input";

const ID = "00000000-0000-4000-8000-000000000001";
const parse = (effectiveAt?: string) => ZPublishInput.safeParse({ documentId: ID, effectiveAt });

describe("the publish form's time", () => {
  it("is now when left empty or absent", () => {
    expect(parse("")).toMatchObject({ success: true, data: { effectiveAt: null } });
    expect(parse(undefined)).toMatchObject({ success: true, data: { effectiveAt: undefined } });
  });

  it("reads a date and time as UTC, whatever the server's zone", () => {
    expect(parse("2026-12-01T09:30").data?.effectiveAt).toEqual(new Date("2026-12-01T09:30:00.000Z"));
  });

  it("refuses a day that does not exist instead of moving it to the next month", () => {
    const refused = parse("2026-02-30T09:00");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("There is no 2026-02-30 09:00 (UTC).");
    expect(parse("2026-13-01T09:00").success).toBe(false);
    expect(parse("2026-02-28T24:30").success).toBe(false);
  });

  it("refuses anything but a date and a time", () => {
    for (const value of ["tomorrow", "2026-12-01", "2026-12-01T09:30:00Z", "2026-12-01 09:30"])
      expect(parse(value).error?.issues[0]?.message, value).toBe("Give a date and a time, or leave it empty to publish now.");
  });
});
