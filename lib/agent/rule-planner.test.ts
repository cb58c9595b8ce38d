import { describe, expect, it } from "vitest";
import { evidenceQuestion, ownWords, policyWindowDays, rulePlanner } from "./rule-planner";
import { initialState, type TAgentState } from "./state";
import { ZGetPolicyEvidenceArgs } from "../contracts/actions";
import type { TRetrievedPassage } from "../evidence/retrieve-passages";

const ticket = (subject: string, body: string) => ({ subject, body });

describe("evidenceQuestion", () => {
  it("asks an English ticket with a known intent in its own words, then its intent's, in the policies' words", () => {
    const t = ticket("Tablet arrived with a cracked screen", "My tablet arrived with a cracked screen. Can I get a refund?");
    expect(evidenceQuestion(t)).toBe(
      `${t.body}\n${t.subject}\nrefund for damaged electronics that arrive damaged, returned within days of delivery`,
    );
    // The same intent, a more specific subject: the ticket's words tell the documents apart.
    const jacket = ticket("Jacket", "How long do I have to return a jacket?");
    expect(evidenceQuestion(jacket)).toMatch(/^How long do I have to return a jacket\?\nJacket\nwithin how many days of delivery/);
  });

  it("asks any other ticket in its own words, body first", () => {
    expect(evidenceQuestion(ticket("Warranty", "Do you sell extended warranties for laptops?"))).toBe(
      "Do you sell extended warranties for laptops?\nWarranty",
    );
    const spanish = ticket("Pantalla rota", "Hola, mi tablet llegó con la pantalla rota. ¿Puedo obtener un reembolso? Gracias.");
    expect(evidenceQuestion(spanish)).toBe(`${spanish.body}\n${spanish.subject}`);
  });

  it("leaves out a subject clearly in another language than the body's: it would search with words the documents lack", () => {
    const t = ticket(
      "Question about the refund for my order, it arrived and the screen is broken",
      "Hola, la pantalla llegó rota. ¿Puedo devolverla? Gracias",
    );
    expect(evidenceQuestion(t)).toBe(t.body);
    expect(ownWords(ticket("Pedido roto, quiero un reembolso por favor", "Hola, mi pedido llegó roto y no sé qué hacer."), "es")).toContain(
      "Pedido roto",
    );
  });

  it("caps the question at 500 characters", () => {
    expect(evidenceQuestion(ticket("Question", "word ".repeat(300))).length).toBe(500);
  });

  it("keeps a long ticket with a known intent within the evidence tool's contract, its intent's words whole", () => {
    const long = ticket("Cracked screen", `My tablet arrived with a cracked screen. ${"It is really bad. ".repeat(60)}Is that covered?`);
    const question = evidenceQuestion(long);
    expect(ZGetPolicyEvidenceArgs.safeParse({ question }).success).toBe(true);
    // The sentence that asks, not the story around it.
    expect(question).toBe(
      "My tablet arrived with a cracked screen. Is that covered?\nCracked screen\nrefund for damaged electronics that arrive damaged, returned within days of delivery",
    );
    expect(question.endsWith("\nrefund for damaged electronics that arrive damaged, returned within days of delivery")).toBe(true);
  });
});

const passage = (audience: "customer" | "staff"): TRetrievedPassage => ({
  chunkId: audience,
  docKey: "gift-cards",
  version: 1,
  citation: "gift-cards@1",
  title: "Gift cards",
  heading: "Gift cards: Balance",
  text: audience === "staff" ? "Staff may extend a card's expiry once." : "A gift card never expires.",
  locale: "en",
  audience,
  score: 0.5,
  coverage: 1,
});

function stateWith(passages: TRetrievedPassage[]): TAgentState {
  const state = initialState({
    id: "t",
    number: 1,
    subject: "Gift card",
    body: "Does my gift card expire?",
    customerEmail: "c@example.net",
    orderRef: "ORD-1",
  });
  state.evidence = { status: "grounded", question: "q", passages, citations: ["gift-cards@1"] };
  state.order = {
    found: true,
    order: {
      id: "ORD-1",
      item: "Gift card",
      category: "gift",
      amountCents: 5_000,
      currency: "USD",
      deliveredAt: null,
      daysSinceDelivery: null,
      refundedCents: 0,
      refundableCents: 5_000,
      customerName: "Ana Ruiz",
      customerFlagged: false,
    },
  };
  return state;
}

describe("rulePlanner", () => {
  it("hands a ticket over instead of drafting when only staff-only passages answer it", async () => {
    expect(await rulePlanner.decide(stateWith([passage("staff")]), new AbortController().signal)).toEqual({
      decision: { action: "request_human_approval", args: { reason: "Only staff-only policy covers this ticket." } },
    });
    expect(await rulePlanner.decide(stateWith([passage("staff"), passage("customer")]), new AbortController().signal)).toEqual({
      decision: { action: "draft_reply", args: {} },
    });
  });
});

describe("policyWindowDays", () => {
  const window = (text: string): TRetrievedPassage => ({ ...passage("customer"), citation: `w${text.length}@1`, text });

  it("reads the window a passage states for an item that arrives damaged, not one stated for anything else", () => {
    const mind = window(
      "You can send it back within 30 days of delivery without giving a reason. Broken items are handled under the damaged-electronics policy.",
    );
    const damaged = window("Electronics that arrive damaged may be returned for a full refund within 14 days of delivery.");
    expect(policyWindowDays(stateWith([mind]))).toBeNull();
    expect(policyWindowDays(stateWith([mind, damaged]))).toEqual({ days: 14, citation: damaged.citation });
  });
});
