// A ticket is answered in the language of its body, from the documents in effect in that language,
// through the real loop: an English subject line over a Spanish body is a Spanish ticket. Without a
// Spanish document in effect it is handed over for its language; with one, it is answered from it, in
// Spanish, quoting only what the customer may read.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { freshOrder } from "../../testing/runs";
import { writeTestVersion } from "../../testing/policy-corpus";
import { seedDemo } from "../../prisma/seed/demo";
import { createTicket } from "../intake/create-ticket";
import { runAgent } from "./run-agent";
import type { PrismaClient } from "../../generated/prisma/client";

const testDb = useTestDb(seedDemo);
beforeAll(async () => {
  const { client } = testDb();
  // The demo's Spanish documents retired: no Spanish document is in effect until the test publishes one.
  await client.policyDocument.updateMany({
    where: { locale: { startsWith: "es" }, status: "published" },
    data: { status: "retired", retiredAt: new Date() },
  });
});

const DAMAGED_ES = `---
key: productos-danados-test
title: "Productos que llegan dañados"
locale: es
owner: Logística
---
## Si tu pedido llega dañado

Si un producto llega roto, con la pantalla rota o no enciende al sacarlo de la caja, avísanos en un plazo de 7 días desde la entrega y te damos un reembolso del importe completo.

## Reclamaciones al transportista {audience=staff}

Presenta la reclamación al transportista en un plazo de 5 días laborables; si el cliente insiste, ofrece un cupón de cortesía.
`;

async function spanishTicket(client: PrismaClient): Promise<string> {
  const { email, orderId } = await freshOrder(client);
  const ticket = await client.$transaction((tx) =>
    createTicket(
      {
        subject: "Question about the refund for my order, it arrived and the screen is broken",
        body: `Hola, mi tablet llegó con la pantalla rota. ¿Puedo obtener un reembolso? Pedido ${orderId}. Gracias.`,
        customerEmail: email,
        orderRef: orderId,
        source: "form",
      },
      { type: "system" },
      tx,
    ),
  );
  return ticket.id;
}

describe("a ticket's language", () => {
  it("hands a Spanish body under an English subject over as unsupported_language while no Spanish document is in effect", async () => {
    const { client } = testDb();
    const run = await runAgent({ ticketId: await spanishTicket(client), client, mode: "simulate" });
    expect(run).toMatchObject({ status: "needs_human", reason: "unsupported_language", citations: [] });
    expect(run.path).toEqual(["get_policy_evidence", "request_human_approval"]);
  });

  it("answers it from the Spanish policy, in Spanish, once one is published, quoting no staff-only passage", async () => {
    const { client } = testDb();
    await writeTestVersion(client, { markdown: DAMAGED_ES });
    const run = await runAgent({ ticketId: await spanishTicket(client), client, mode: "simulate" });
    expect(run).toMatchObject({ status: "needs_human", reason: "draft_ready_for_review", citations: ["productos-danados-test@1"] });
    expect(run.path).toEqual(["get_policy_evidence", "lookup_order", "draft_reply", "request_human_approval"]);
    expect(run.draft).toMatch(/^Hola, Customer:\n\nGracias por escribirnos sobre el pedido ORD-\d+ \(Aurora 10-inch tablet\)\.\n/);
    expect(run.draft).toContain("“Si un producto llega roto, con la pantalla rota o no enciende al sacarlo de la caja");
    expect(run.draft).toContain("[productos-danados-test@1]");
    expect(run.draft).toMatch(/\n\nUn saludo,\nAtención al cliente$/);
    expect(run.draft).not.toContain("transportista");
    expect(run.draft).not.toMatch(/\b(Hi|Thank you|Kind regards)\b/);
  });

  it("still answers the English ticket from the English policy, in English", async () => {
    const { client } = testDb();
    const { email, orderId } = await freshOrder(client);
    const ticket = await client.$transaction((tx) =>
      createTicket(
        {
          subject: "Pantalla rota",
          body: `Hi, my Aurora tablet (order ${orderId}) arrived with a cracked screen. Can I get a refund?`,
          customerEmail: email,
          orderRef: orderId,
          source: "form",
        },
        { type: "system" },
        tx,
      ),
    );
    const run = await runAgent({ ticketId: ticket.id, client, mode: "simulate" });
    expect(run).toMatchObject({ reason: "draft_ready_for_review", citations: ["return-policy-us@2"] });
    expect(run.draft).toMatch(/^Hi Customer,\n/);
  });
});
