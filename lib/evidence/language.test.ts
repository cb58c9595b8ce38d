import { describe, expect, it } from "vitest";
import { detectLanguage, ticketLanguage } from "./language";
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
  });

  it.each([
    ["es", "Hola, compré una lavadora hace dos semanas y todavía no me ha llegado. ¿Dónde está mi pedido?"],
    ["es", "quisiera saber si puedo pagar con tarjeta de regalo, gracias"],
    ["es", "Necesito devolver unos zapatos que me quedan pequeños, cual es el plazo?"],
    ["pt", "Comprei um sofá e ele chegou com um rasgo. Como faço para trocar?"],
    ["de", "Ich möchte mein Abonnement kündigen. Wie geht das bitte?"],
    ["de", "Kann ich mit PayPal bezahlen oder nur mit Kreditkarte?"],
    ["fr", "Je n'ai toujours pas reçu mon colis, pouvez-vous vérifier la livraison ?"],
    ["fr", "Est-ce que je peux utiliser ma carte cadeau sur le site ?"],
    ["it", "Vorrei sapere quanto tempo ci vuole per la consegna in Italia"],
    ["es", "¿Hacéis envíos a Canarias?"],
    ["es", "¿Caducan las tarjetas regalo?"],
    ["de", "Ab welchem Bestellwert ist der Versand kostenlos?"],
    ["pl", "Dzień dobry, chciałbym zwrócić słuchawki, bo mi się nie podobają. Jak to zrobić? Dziękuję"],
    ["sv", "Hej, när kommer min beställning? Jag har väntat i två veckor på den. Tack så mycket"],
  ])("recognises %s written plainly, short, or without the words a refund ticket uses", (language, text) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it("keeps English English, with a foreign name or phrase in it", () => {
    expect(detectLanguage("My order from Señora de la Cruz arrived broken, can I get a refund?")).toBe("en");
    expect(detectLanguage("Refund")).toBe("en");
    expect(detectLanguage("I bought it in Paris, the café de la Paix shop, and the charger does not work.")).toBe("en");
  });

  it("reads a text written without accents as the one written with them", () => {
    expect(detectLanguage("Hola, cuando llego mi pedido? Como puedo pedir la devolucion?")).toBe("es");
    expect(detectLanguage("Ich mochte eine Ruckerstattung fur meine Bestellung")).toBe("de");
  });

  it("finds every English demo ticket English", () => {
    expect(TICKETS.map((t) => detectLanguage(`${t.subject}\n${t.body}`)).filter((l) => l !== "en")).toEqual([]);
    expect(TICKETS.map((t) => ticketLanguage(t)).filter((l) => l !== "en")).toEqual([]);
  });
});

describe("ticketLanguage", () => {
  // The subject is often written by a form, a mail client's reply prefix or a customer who switches
  // to English for a heading; the body is what they wrote.
  it("decides on the body: an English subject over a Spanish body is Spanish", () => {
    const ticket = {
      subject: "Question about the refund for my order, it arrived and the screen is broken",
      body: "Hola, la pantalla llegó rota. ¿Puedo devolverla? Gracias",
    };
    expect(detectLanguage(`${ticket.subject}\n${ticket.body}`)).toBe("en");
    expect(ticketLanguage(ticket)).toBe("es");
  });

  it("decides on the body: a Spanish subject over an English body is English", () => {
    expect(
      ticketLanguage({
        subject: "Pedido roto, quiero un reembolso por favor",
        body: "My tablet arrived with a cracked screen. Can I get a refund?",
      }),
    ).toBe("en");
  });

  it("lets the subject break a tie when the body does not say", () => {
    expect(ticketLanguage({ subject: "Hola, mi pedido llegó roto y quiero un reembolso", body: "ORD-1001" })).toBe("es");
    expect(ticketLanguage({ subject: "Pedido", body: "ORD-1001" })).toBe("en");
    expect(ticketLanguage({ subject: "Refund", body: "ORD-1001" })).toBe("en");
  });
});
