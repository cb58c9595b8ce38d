// Where a hand reply starts: never from a draft that promised a refund, whether its run was live or
// simulated (a simulated run's draft says "we have refunded" just the same).
import { describe, expect, it } from "vitest";
import { handReplyStartOf } from "./ticket-view";

type TRunShape = NonNullable<Parameters<typeof handReplyStartOf>[0]>;
const run = (proposals: { simulated: boolean }[]): TRunShape =>
  ({ draft: "We have refunded 79.00 USD in full [refund-window@1].", proposals }) as unknown as TRunShape;

describe("a hand reply's starting text", () => {
  it("is the draft of a run that proposed no refund", () => {
    expect(handReplyStartOf(run([]))).toBe("We have refunded 79.00 USD in full [refund-window@1].");
  });
  it("is empty after a live refund proposal", () => {
    expect(handReplyStartOf(run([{ simulated: false }]))).toBe("");
  });
  it("is empty after a simulated refund proposal", () => {
    expect(handReplyStartOf(run([{ simulated: true }]))).toBe("");
  });
  it("is empty without a run", () => {
    expect(handReplyStartOf(undefined)).toBe("");
  });
});
