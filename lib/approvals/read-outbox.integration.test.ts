import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { drainQueue } from "../../testing/queue";
import { pendingApproval, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { signRequest, verifySignedRequest } from "../intake/request-signature";
import { decideApproval } from "./decide-approval";
import { readOutbox } from "./read-outbox";

const testDb = useTestDb(seedDemo);

describe("the outbox", () => {
  it("lists approved replies oldest first and pages by the last id read", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    for (const t of ["demo-cracked-tablet", "demo-sla-question", "demo-flagged-account"]) {
      const request = await pendingApproval(client, t);
      await decideApproval({
        approvalId: request.id,
        decision: t === "demo-flagged-account" ? "reject" : "approve",
        note: "no",
        digest: request.digest,
        actor: reviewer,
      });
    }
    await drainQueue(testDb()); // the refund's reply is released once the refund is executed
    const all = await readOutbox({});
    // In the order they were released: the refund's reply only after its refund was executed; a rejection sends nothing.
    expect(all!.messages.map((m) => m.externalId)).toEqual(["demo-sla-question", "demo-cracked-tablet"]);
    const first = await readOutbox({ limit: 1 });
    expect(first!.next).toBe(first!.messages[0]!.id);
    const second = await readOutbox({ after: first!.next, limit: 1 });
    expect(second!.messages.map((m) => m.externalId)).toEqual(["demo-cracked-tablet"]);
    expect(await readOutbox({ after: "00000000-0000-4000-8000-000000000000" })).toBeNull();
  });
});

describe("signed requests", () => {
  const secret = "s".repeat(40);
  const now = new Date("2026-11-22T12:00:00Z");
  const ts = Math.floor(now.getTime() / 1000);
  const good = { secret, method: "GET", pathAndQuery: "/api/outbox?limit=5", timestamp: String(ts), now };

  it("accepts the exact request, and nothing altered or stale", () => {
    const signature = signRequest({ secret, timestamp: ts, method: "GET", pathAndQuery: "/api/outbox?limit=5" });
    expect(verifySignedRequest({ ...good, signature })).toBe(true);
    expect(verifySignedRequest({ ...good, signature, pathAndQuery: "/api/outbox?limit=50" })).toBe(false);
    expect(verifySignedRequest({ ...good, signature, secret: "t".repeat(40) })).toBe(false);
    expect(verifySignedRequest({ ...good, signature, now: new Date(now.getTime() + 301_000) })).toBe(false);
    expect(verifySignedRequest({ ...good, signature: null })).toBe(false);
    expect(verifySignedRequest({ ...good, signature, timestamp: "soon" })).toBe(false);
  });
});
