import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { admitTicket } from "../../lib/intake/admit-ticket";
import { BUILTIN_BUNDLE_VERSION } from "../../lib/intake/builtin-bundle";
import { routeClaimId } from "../../lib/intake/route-signature";
import { intakeBundleKey } from "../../lib/env";
import { seedDemo } from "./demo";
import { SCALE_STEPS_PER_RUN, seedScale } from "./scale";

const testDb = useTestDb();
const onDatabase = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";

describe(`scale seed (${onDatabase})`, () => {
  it("adds tickets, runs and trace events in the documented shape, then nothing on a second run", async () => {
    const { client } = testDb();
    await seedDemo(client);
    const lines: string[] = [];
    const first = await seedScale(client, { tickets: 400, batchSize: 150, onProgress: (l) => lines.push(l) });
    // Per 20 tickets: 25 runs of 8 steps; proposals on the 14 needs_human/resolved tickets' runs.
    expect(first).toEqual({ tickets: 400, runs: 500, events: 500 * SCALE_STEPS_PER_RUN, proposals: 20 * (14 + 7), skippedBatches: 0 });
    expect(lines.some((l) => l.includes("tickets 400/400"))).toBe(true);
    expect(await client.traceEvent.count()).toBe(4000);

    const second = await seedScale(client, { tickets: 400, batchSize: 150 });
    expect(second).toMatchObject({ tickets: 0, runs: 0, events: 0, skippedBatches: 3 });
    expect(await client.ticket.count({ where: { externalId: { startsWith: "scale-" } } })).toBe(400);
  });

  it("gives bypassed tickets no run, and routes the admission gate agrees with", async () => {
    const { client } = testDb();
    const tickets = await client.ticket.findMany({
      where: { externalId: { startsWith: "scale-" } },
      include: { _count: { select: { runs: true } } },
    });
    for (const t of tickets) {
      const admission = admitTicket(
        { ticketId: routeClaimId(t), route: t.route, bundleVersion: t.bundleVersion, signature: t.routeSignature },
        { bundleVersion: BUILTIN_BUNDLE_VERSION, key: intakeBundleKey() },
      );
      expect(admission.admission).toBe(t.admission);
      if (t.status === "bypassed") expect({ reason: t.reason, runs: t._count.runs }).toEqual({ reason: admission.reason, runs: 0 });
    }
    // Scale tickets are older than the demo's: the queue opens on the demo tickets.
    const newest = await client.ticket.findFirst({ orderBy: { createdAt: "desc" } });
    expect(newest?.source).toBe("seed");
    expect(newest?.externalId?.startsWith("demo-")).toBe(true);
  });
});
