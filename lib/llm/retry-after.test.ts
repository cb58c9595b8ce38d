import { describe, expect, it } from "vitest";
import { retryAfterMs } from "./provider";

describe("a 429's Retry-After", () => {
  it("reads retry-after-ms first, then retry-after in seconds or as a date, and waits a second when none is given", () => {
    const now = Date.parse("2026-11-27T06:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ "retry-after": "3" }), now)).toBe(3_000);
    expect(retryAfterMs(new Headers({ "retry-after": "Fri, 27 Nov 2026 06:00:07 GMT" }), now)).toBe(7_000);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), now)).toBe(1_000);
    expect(retryAfterMs(new Headers(), now)).toBe(1_000);
    expect(retryAfterMs(undefined, now)).toBe(1_000);
  });
});
