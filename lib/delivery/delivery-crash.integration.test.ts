// Exactly once at Zendesk across a worker killed mid-delivery (PostgreSQL): the first attempt's update
// reaches Zendesk, and the process is SIGKILLed while it waits for the answer. The retry finds the
// delivery's tag on the ticket and posts nothing: one comment per approval.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { startFakeZendesk, type TFakeZendesk } from "../../testing/fake-zendesk/server";
import { approvedReply } from "../../testing/replies";
import { killHard, spawnTs } from "../../testing/spawn-ts";
import { seedDemo } from "../../prisma/seed/demo";
import { zendeskChannel } from "./channels/zendesk";
import { deliverReply } from "./deliver-reply";

const testDb = useTestDb();
let zendesk: TFakeZendesk;
beforeAll(async () => {
  zendesk = await startFakeZendesk();
  await seedDemo(testDb().client);
});
afterAll(async () => zendesk.close());

describe.runIf(!!process.env.DATABASE_URL)("a reply delivered to Zendesk across a crash", () => {
  it("reaches Zendesk exactly once when the worker is killed after Zendesk applied it", async () => {
    const { client, url } = testDb();
    const fake = zendesk.addTicket({ id: 5201, subject: "Refund timing", requesterEmail: "c@example.com", body: "How long?" });
    const { message, delivery } = await approvedReply(client, { channel: "zendesk", externalTicketId: "5201" });
    zendesk.hangAfterNextUpdate();
    const child = spawnTs("testing/deliver-then-hang.ts", [url!, delivery.id], {
      REPLY_CHANNEL: "zendesk",
      ZENDESK_URL: zendesk.url,
      ZENDESK_EMAIL: zendesk.email,
      ZENDESK_API_TOKEN: zendesk.token,
    });
    try {
      await zendesk.updateHanging();
      await killHard(child);
    } finally {
      await killHard(child);
    }
    expect(fake.comments.filter((c) => c.body === message.body)).toHaveLength(1);
    // The killed attempt is on record and nothing says delivered: the queue will try again.
    expect(await client.replyDelivery.findUnique({ where: { id: delivery.id } })).toMatchObject({
      state: "pending",
      attempts: 1,
      channel: "zendesk",
    });

    const retry = zendeskChannel({ url: zendesk.url, email: zendesk.email, token: zendesk.token, timeoutMs: 2_000 });
    expect(await deliverReply({ deliveryId: delivery.id, client, channel: retry })).toBe("delivered");
    expect(fake.comments.filter((c) => c.body === message.body)).toHaveLength(1);
    const puts = zendesk.requests.filter((r) => r.method === "PUT" && r.path === "/api/v2/tickets/5201.json");
    expect(puts).toHaveLength(1);
    expect(await client.replyDelivery.findUnique({ where: { id: delivery.id } })).toMatchObject({ state: "delivered", attempts: 2 });
  }, 90_000);
});
