import { describe, expect, it } from "vitest";
import { splitCitations } from "../contracts/citations";
import { citedPassages } from "./cited-passages";

// Passages as retrieval orders them, best first: the window rule ranks above where refunds go.
const PASSAGES = [
  {
    citation: "return-policy-us@2",
    chunkId: "window",
    text: "Electronics that arrive damaged may be returned for a full refund within 30 days of delivery.",
  },
  { citation: "return-policy-us@2", chunkId: "approvals", text: "Refunds at or above 500 USD need approval by a support specialist." },
  {
    citation: "return-policy-us@2",
    chunkId: "method",
    text: "Refunds are issued to the original payment method. Orders delivered more than 30 days ago are not eligible for a refund under this policy.",
  },
  { citation: "support-sla@1", chunkId: "sla", text: "We answer every ticket within one business day." },
];

const occurrences = (draft: string) => splitCitations(draft).filter((part) => "citation" in part).length;

describe("citedPassages", () => {
  it("opens, for each sentence, the passage of the cited document that supports it", () => {
    const draft = [
      "Hi Dana,",
      "Electronics that arrive damaged may be returned for a refund within 30 days of delivery [return-policy-us@2].",
      "We have refunded 79.00 USD to your original payment method [return-policy-us@2].",
    ].join("\n");
    expect(citedPassages(draft, PASSAGES)).toEqual(["window", "method"]);
  });

  it("gives one answer per occurrence, in the text's order, even for the same citation twice in one sentence or two documents in one", () => {
    const draft =
      "Refunds need approval by a specialist at or above 500 USD [return-policy-us@2] [return-policy-us@2]. We answer every ticket within one business day [support-sla@1][return-policy-us@2]. Thanks!";
    const opened = citedPassages(draft, PASSAGES);
    expect(opened).toHaveLength(occurrences(draft));
    expect(opened).toEqual(["approvals", "approvals", "sla", "window"]);
  });

  it("falls back to the document's best passage when none supports the sentence, and to nothing when none was retrieved", () => {
    const draft = "Your parcel is on its way [return-policy-us@2]. See also [refund-methods@1].";
    expect(citedPassages(draft, PASSAGES)).toEqual(["window", null]);
    expect(citedPassages("No citations here.", PASSAGES)).toEqual([]);
  });
});
