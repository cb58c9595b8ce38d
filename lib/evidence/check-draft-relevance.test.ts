// Whether the passages a draft stands on answer the ticket's question (rule 6 of the draft check).
import { describe, expect, it } from "vitest";
import { offTopic, topicTerms } from "./check-draft-relevance";
import { checkDraft } from "./check-draft";

const RETURNS = "US return policy: damaged electronics: Returns and refunds";
const SLA = "Support service levels: Response times";
const P = {
  window: {
    citation: "return-policy-us@2",
    heading: RETURNS,
    text: "Electronics that arrive damaged, including a cracked screen, a broken case or a device that does not power on, may be returned for a full refund within 30 days of delivery.",
  },
  approval: {
    citation: "return-policy-us@2",
    heading: RETURNS,
    text: "Refunds at or above 500 USD need approval by a support specialist. Refunds below 500 USD may be approved by any support reviewer.",
  },
  method: { citation: "return-policy-us@2", heading: RETURNS, text: "Refunds are issued to the original payment method." },
  firstResponse: {
    citation: "support-sla@1",
    heading: SLA,
    text: "Every ticket receives a first response within 24 hours. Tickets about damaged or missing items are answered within 8 hours.",
  },
  timing: {
    citation: "support-sla@1",
    heading: SLA,
    text: "A refund approved by a reviewer reaches the original payment method within 5 business days.",
  },
  lostEs: {
    citation: "envios-es@1",
    heading: "Envíos: Paquetes perdidos",
    text: "Si tu pedido no ha llegado, avísanos dentro de los 14 días siguientes a la fecha de entrega prevista.",
  },
};
type TKey = keyof typeof P;
const judge = (question: string, keys: TKey[]) => offTopic({ question, passages: keys.map((k) => P[k]) });

describe("offTopic", () => {
  it("refuses the damaged-electronics window for a parcel that never arrived, naming what was asked", () => {
    expect(judge("Lost parcel\nMy order never arrived. How long do I have to report it?", ["window"])).toEqual({
      citation: "return-policy-us@2",
      asked: ["lost parcel", "never arrived"],
    });
    expect(judge("Where is it?\nThe package hasn't arrived yet, can I still return it?", ["window"])).toMatchObject({
      asked: ["hasn't arrived"],
    });
    // In another language, the same.
    expect(judge("Pedido\nMi pedido nunca llegó. ¿Cuánto tiempo tengo para reclamar?", ["window"])).toMatchObject({
      asked: ["nunca llegó"],
    });
  });

  it("refuses a passage written for other subjects, though it shares the ticket's words", () => {
    expect(judge("Wrong size\nYou sent the wrong size. How long do I have to return it?", ["window"])).toMatchObject({
      asked: ["wrong size"],
    });
    expect(judge("Plan\nCan I get a refund for my subscription to my card?", ["method"])).toMatchObject({ asked: ["subscription"] });
  });

  it("takes a passage to be written for the subjects its heading names, not those its text names in passing", () => {
    const countries = {
      citation: "shipping-international@1",
      heading: "International shipping: which countries we deliver to: Countries we do not deliver to",
      text: "We send parcels only within the United States. A parcel damaged at a forwarding service is not ours to replace.",
    };
    expect(offTopic({ question: "Shipping\nDo you ship to Canada?", passages: [countries] })).toBeNull();
    // Without a heading that says so, the passage's "damaged" is all it is written for.
    expect(offTopic({ question: "Shipping\nDo you ship to Canada?", passages: [{ ...countries, heading: "" }] })).toMatchObject({
      asked: ["ship to"],
    });
  });

  it("does not take a cancellation for a subject: what is cancelled is", () => {
    const plans = {
      citation: "subscription-billing@1",
      heading: "Software and cloud subscriptions: billing, plan changes and failed payments: Which subscriptions this covers",
      text: "This covers subscriptions we sell and bill: cloud storage plans, security software and streaming add-ons, billed monthly or yearly.",
    };
    const question = "Cancel yearly add-on\nI was charged for a yearly streaming add-on 3 days ago and want to cancel. Can I get a refund?";
    expect(offTopic({ question, passages: [plans] })).toBeNull();
  });

  it("refuses passages that share none of the ticket's own words", () => {
    expect(judge("Who decides\nWho approves refunds at your company?", ["window"])).toMatchObject({ asked: ["approves", "decides"] });
    expect(judge("Shipping\nDo you ship to Canada?", ["timing"])).toMatchObject({ citation: "support-sla@1" });
    expect(judge("Refund\nHow long until my refund reaches my card?", ["firstResponse"])).toMatchObject({ citation: "support-sla@1" });
  });

  it.each<[string, TKey[]]>([
    ["Tablet arrived with a cracked screen\nCan I get a refund?", ["window", "method"]],
    ["Laptop won't turn on\nThe laptop I ordered won't turn on, it was like that out of the box.", ["window"]],
    ["Refund status\nWhen can I expect the refund on my statement?", ["timing"]],
    ["Tablet cracked\nMy tablet arrived cracked, how long until I see the money?", ["timing"]],
    ["Gift card\nCan you refund me as a gift card instead?", ["method"]],
    ["Manager\nDoes a manager need to sign off on my 600 dollar refund?", ["approval"]],
    ["Waiting\nWhen will I hear back from support?", ["firstResponse"]],
    ["Response time\nWhat is your response time for a missing item?", ["firstResponse"]],
    ["Return question\nCan I still return my headphones? They were delivered three weeks ago.", ["window"]],
    ["Pedido perdido\nMi pedido no ha llegado. ¿Qué hago?", ["lostEs"]],
    ["Refund\nRefund please.", ["approval"]],
  ])("passes what answers the question: %j", (question, keys) => {
    expect(judge(question, keys)).toBeNull();
  });

  it("reads the ticket's words as the passages': a curly apostrophe, a word of four letters, a shared beginning", () => {
    expect(judge("Parcel\nThe parcel hasn’t arrived yet.", ["window"])).toMatchObject({ asked: ["hasn't arrived"] });
    const lamps = { citation: "lamps@1", heading: "Lighting", text: "Lamps may be returned within 30 days." };
    expect(offTopic({ question: "Lamp\nMy lamp flickers.", passages: [lamps] })).toBeNull();
    const inspection = { citation: "inspection@1", text: "Returned items are inspected when they reach the warehouse." };
    expect(offTopic({ question: "Inspection\nHow does the inspection work?", passages: [inspection] })).toBeNull();
  });

  it("finds the ticket's words in any of the passages, and names at most five it asked", () => {
    expect(judge("Manager\nDoes a manager need to sign off?", ["window", "approval"])).toBeNull();
    const asked = judge("Odd\nQuokkas, wombats, platypuses, echidnas, dingoes and kookaburras?", ["firstResponse"]);
    expect(asked?.asked).toEqual(["quokkas", "wombats", "platypuses", "echidnas", "dingoes"]);
  });

  it("holds a passage to nothing when the ticket uses only the words every ticket uses", () => {
    expect(judge("Refund\nRefund please, thank you.", ["firstResponse"])).toBeNull();
  });

  it("has nothing to hold when the draft stands on no passage", () => {
    expect(offTopic({ question: "My order never arrived.", passages: [] })).toBeNull();
  });

  it("leaves the order's own words out of the question", () => {
    // A board game called "Missing Link" is no missing parcel.
    const question = "Return\nCan I return my Missing Link board game?";
    expect(offTopic({ question, passages: [P.window] })).toMatchObject({ asked: ["missing"] });
    expect(offTopic({ question, passages: [P.window], orderTerms: ["Missing Link board game"] })).toBeNull();
  });
});

describe("topicTerms", () => {
  it("reads phrases as concepts and the rest as stems, without the words every ticket uses", () => {
    const { terms, subjects } = topicTerms("My order never arrived and the box was missing. Please help, I want a refund.");
    expect([...subjects]).toEqual(["not_delivered"]);
    expect([...terms.entries()]).toEqual([["zzconceptnotdelivered", ["never arrived", "box was missing"]]]);
    // A phrase written twice is named once.
    expect(topicTerms("It never arrived. It never arrived!").terms.get("zzconceptnotdelivered")).toEqual(["never arrived"]);
  });
});

describe("checkDraft with the ticket's question", () => {
  const draft = "Electronics that arrive damaged may be returned for a full refund within 30 days of delivery [return-policy-us@2].";
  const retrieved = [P.window, P.approval];

  it("reports off_topic when the passage the draft stands on answers another question, and checks nothing without one", () => {
    const check = (question?: string) => checkDraft({ draft, retrieved, orderNumbers: [], orderTerms: [], question });
    expect(check("Lost parcel\nMy order never arrived. How long do I have to report it?")).toEqual([
      { kind: "off_topic", citation: "return-policy-us@2", asked: ["lost parcel", "never arrived"] },
    ]);
    expect(check("Cracked\nMy tablet arrived cracked. Can I return it?")).toEqual([]);
    expect(check(undefined)).toEqual([]);
  });

  it("stands a sentence only on the cited passages that support it", () => {
    const approvals = { citation: "x@1", heading: "Refund approvals", text: "Refunds above 500 USD need a specialist's approval." };
    const damaged = { citation: "x@1", heading: "Damaged electronics", text: "Damaged electronics may be returned within 30 days." };
    const problems = checkDraft({
      draft: "Refunds above 500 USD need a specialist's approval [x@1].",
      retrieved: [approvals, damaged],
      orderNumbers: [],
      orderTerms: [],
      question: "Lost parcel\nMy parcel never arrived. Who approves my refund?",
    });
    // The damaged-electronics passage is cited by the tag but supports nothing: it is not what the draft says.
    expect(problems).toEqual([]);
  });

  it("holds to the passage each sentence stands on, not to every passage of the document cited", () => {
    // The approval passage is retrieved under the same tag, but the sentence stands on the window.
    const asked = checkDraft({ draft, retrieved, orderNumbers: [], orderTerms: [], question: "Who decides\nWho approves refunds?" });
    expect(asked).toEqual([{ kind: "off_topic", citation: "return-policy-us@2", asked: ["approves", "decides"] }]);
  });
});
