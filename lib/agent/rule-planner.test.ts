import { describe, expect, it } from "vitest";
import { evidenceQuestion, ownWords, rulePlanner } from "./rule-planner";
import { initialState, type TAgentState } from "./state";
import type { TRetrievedPassage } from "../evidence/retrieve-passages";

const ticket = (subject: string, body: string) => ({ subject, body });

describe("evidenceQuestion", () => {
  it("asks an English ticket with a known intent its intent's question, in the policies' words", () => {
    const q = evidenceQuestion(
      ticket("Tablet arrived with a cracked screen", "My tablet arrived with a cracked screen. Can I get a refund?"),
    );
    expect(q).toBe("refund for damaged electronics that arrive damaged, returned within days of delivery");
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
