import { describe, expect, it } from "vitest";
import { draftReply } from "./rule-drafter";
import { initialState, type TAgentState } from "./state";
import type { TRetrievedPassage } from "../evidence/retrieve-passages";
import { checkDraft } from "../evidence/check-draft";

const passage = (text: string, extra: Partial<TRetrievedPassage> = {}): TRetrievedPassage => ({
  chunkId: text.slice(0, 8),
  docKey: "support-hours",
  version: 1,
  citation: "support-hours@1",
  title: "Support hours",
  heading: "Support hours: Replies",
  text,
  locale: "en",
  audience: "customer",
  score: 0.5,
  coverage: 1,
  ...extra,
});

function stateWith(subject: string, body: string, passages: TRetrievedPassage[]): TAgentState {
  const state = initialState({ id: "t", number: 1, subject, body, customerEmail: "c@example.net", orderRef: "ORD-1001" });
  state.evidence = { status: "grounded", question: "q", passages, citations: [...new Set(passages.map((p) => p.citation))] };
  state.order = {
    found: true,
    order: {
      id: "ORD-1001",
      item: "Aurora 10-inch tablet",
      category: "electronics",
      amountCents: 7_900,
      currency: "USD",
      deliveredAt: null,
      daysSinceDelivery: 12,
      refundedCents: 0,
      refundableCents: 7_900,
      customerName: "Dana Whitfield",
      customerFlagged: false,
    },
  };
  return state;
}

const STAFF = passage("Tell no customer that weekend tickets wait for Monday.", { chunkId: "staff", audience: "staff" });
const ANSWER = passage("Every ticket receives a first response within 24 hours.");

describe("draftReply", () => {
  it("writes the English reply as it always has", () => {
    const state = stateWith("Waiting", "When will I hear back from support?", [ANSWER]);
    expect(draftReply(state).text).toBe(
      "Hi Dana,\n\nThank you for writing to us about order ORD-1001 (Aurora 10-inch tablet).\nOur policy says: “Every ticket receives a first response within 24 hours.” [support-hours@1]\n\nKind regards,\nCustomer Support",
    );
  });

  it("quotes no staff-only passage, even the best ranked one", () => {
    const draft = draftReply(stateWith("Waiting", "When will I hear back from support?", [STAFF, ANSWER])).text;
    expect(draft).toContain(ANSWER.text);
    expect(draft).not.toContain("weekend");
  });

  it("refuses to draft from staff-only passages alone", () => {
    expect(() => draftReply(stateWith("Waiting", "When will I hear back?", [STAFF]))).toThrow(/the customer may read/);
  });

  it("answers from Spanish passages in Spanish, quoting the passage whole, and the draft passes the claim check", () => {
    const es = passage("Respondemos a cada consulta en un plazo de 24 horas.", {
      locale: "es",
      docKey: "atencion",
      citation: "atencion@1",
    });
    const state = stateWith("Respuesta", "¿Cuándo me vais a contestar? Escribí hace dos días.", [es]);
    const draft = draftReply(state);
    expect(draft.text).toBe(
      "Hola, Dana:\n\nGracias por escribirnos sobre el pedido ORD-1001 (Aurora 10-inch tablet).\nEsto es lo que dice nuestra política:\n“Respondemos a cada consulta en un plazo de 24 horas.” [atencion@1]\n\nUn saludo,\nAtención al cliente",
    );
    expect(draft.citations).toEqual(["atencion@1"]);
    expect(
      checkDraft({
        draft: draft.text,
        retrieved: [es],
        orderNumbers: [79, 12, 1001, 10],
        orderTerms: ["Dana Whitfield", "ORD-1001", "Aurora 10-inch tablet"],
      }),
    ).toEqual([]);
  });

  it("writes its own sentences in each language a ticket can be detected in", () => {
    for (const locale of ["fr", "de", "pt", "it", "nl", "es-MX"]) {
      const draft = draftReply(stateWith("x", "y", [passage("Texto.", { locale })])).text;
      expect(draft, locale).not.toMatch(/\b(Hi|Thank you|Our policy says|Kind regards)\b/);
      expect(draft, locale).toContain("“Texto.” [support-hours@1]");
    }
  });
});
