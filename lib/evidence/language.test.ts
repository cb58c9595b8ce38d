import { describe, expect, it } from "vitest";
import { detectLanguage, isCoveredLanguage } from "./language";
import { TICKETS } from "../../prisma/seed/demo";

describe("detectLanguage", () => {
  it.each([
    ["es", "Hola, mi tablet llegó con la pantalla rota. ¿Puedo obtener un reembolso? Gracias."],
    ["fr", "Bonjour, ma tablette est arrivée avec l'écran cassé. Je voudrais un remboursement, merci."],
    ["de", "Hallo, wann kommt meine Rückerstattung an? Ich habe die Bestellung zurückgeschickt. Danke"],
    ["pt", "Olá, posso devolver o meu pedido? Chegou há duas semanas e não gostei. Obrigado"],
    ["it", "Ciao, il mio ordine è arrivato con lo schermo rotto. Posso avere un rimborso? Grazie"],
    ["nl", "Hallo, mijn bestelling is kapot aangekomen. Wanneer krijg ik een terugbetaling? Bedankt"],
  ])("recognises %s", (language, text) => {
    expect(detectLanguage(text)).toBe(language);
    expect(isCoveredLanguage(language)).toBe(false);
  });

  it("keeps English English, with a foreign name or phrase in it", () => {
    expect(detectLanguage("My order from Señora de la Cruz arrived broken, can I get a refund?")).toBe("en");
    expect(detectLanguage("Refund")).toBe("en");
    expect(isCoveredLanguage("en")).toBe(true);
  });

  it("finds every English demo ticket English", () => {
    expect(TICKETS.map((t) => detectLanguage(`${t.subject}\n${t.body}`)).filter((l) => l !== "en")).toEqual([]);
  });
});
