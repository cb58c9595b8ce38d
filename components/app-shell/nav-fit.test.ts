import { describe, expect, it } from "vitest";
import { linksThatFit } from "./nav-fit";

describe("linksThatFit", () => {
  const widths = [50, 80, 60, 70];
  const fit = (available: number) => linksThatFit({ available, widths, gap: 4, more: 60 });

  it("keeps every link in the bar when they all fit, to the pixel, without a More button", () => {
    // 50 + 80 + 60 + 70 and three gaps of 4.
    expect(fit(272)).toBe(4);
    expect(fit(1000)).toBe(4);
  });

  it("keeps as many as fit beside the More button once one does not", () => {
    // Three links (198) with a gap and More (64) make 262.
    expect(fit(271)).toBe(3);
    expect(fit(262)).toBe(3);
    expect(fit(261)).toBe(2);
    expect(fit(50 + 64)).toBe(1);
  });

  it("puts every link in the menu when not even one fits beside it", () => {
    expect(fit(50 + 63)).toBe(0);
    expect(fit(0)).toBe(0);
  });

  it("answers 0 for no links", () => {
    expect(linksThatFit({ available: 10, widths: [], gap: 4, more: 60 })).toBe(0);
  });
});
