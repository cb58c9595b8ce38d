import { beforeAll, describe, expect, it } from "vitest";
import type { TicketStatus } from "../../generated/prisma/enums";
import { makeOrder } from "../../testing/fixtures";
import { useTestDb } from "../../testing/db";
import { decodeCursor } from "../db/keyset";
import { listTickets, ZQueueQuery, type TQueuePage } from "./list-tickets";

const testDb = useTestDb();
const onDatabase = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";

const BASE = Date.parse("2026-11-01T12:00:00.000Z");
const STATUSES: TicketStatus[] = ["needs_human", "blocked", "bypassed", "open", "resolved", "auto_approved", "completed"];
const REASON_OF: Partial<Record<TicketStatus, string>> = {
  needs_human: "draft_ready_for_review",
  blocked: "forbidden_action",
  bypassed: "unverified_route",
  resolved: "draft_ready_for_review",
  auto_approved: "refund_auto_approved",
};

type TSeeded = { id: string; status: TicketStatus; reason: string | null; createdAt: Date };
let seeded: TSeeded[] = [];

/** Newest first by (createdAt, id): the order the queue promises. */
const newestFirst = (a: TSeeded, b: TSeeded) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

async function walk(query: Parameters<typeof listTickets>[0]): Promise<TQueuePage[]> {
  const pages: TQueuePage[] = [];
  let page = await listTickets(query);
  pages.push(page);
  while (page.olderCursor) {
    page = await listTickets({ ...query, cursor: decodeCursor(page.olderCursor)! });
    pages.push(page);
    if (pages.length > 100) throw new Error("paging does not end");
  }
  return pages;
}

beforeAll(async () => {
  const { client } = testDb();
  // 70 tickets across every status. Every fifth shares its timestamp with the one before, so the
  // id tie-break is exercised on every page boundary that falls there.
  const data = Array.from({ length: 70 }, (_, i) => {
    const status = STATUSES[i % STATUSES.length]!;
    const minutes = i - (i % 5 === 4 ? 1 : 0);
    return {
      source: "seed" as const,
      subject: `Ticket ${i}`,
      body: "body",
      customerEmail: `c${i % 3}@example.net`,
      route: "guarded_agent" as const,
      bundleVersion: "intake-rules-2026.11",
      admission: status === "bypassed" ? ("bypassed" as const) : ("admitted" as const),
      status,
      reason: REASON_OF[status] ?? null,
      createdAt: new Date(BASE + minutes * 60_000),
    };
  });
  await client.ticket.createMany({ data });
  seeded = await client.ticket.findMany({ select: { id: true, status: true, reason: true, createdAt: true } });
});

describe(`listTickets (${onDatabase})`, () => {
  it("lists new tickets and tickets handed to a person by default, newest first, with words-ready codes", async () => {
    const page = await listTickets({});
    const expected = seeded.filter((t) => ["open", "needs_human", "blocked", "bypassed"].includes(t.status)).sort(newestFirst);
    expect(page.rows.map((r) => r.id)).toEqual(expected.map((t) => t.id));
    expect(page.newerCursor).toBeNull();
    expect(page.olderCursor).toBeNull();
    expect(page.rows[0]).toMatchObject({ subject: expect.stringMatching(/^Ticket \d+$/), proposed: null, assigneeName: null });
  });

  it("filters by one status, by every unresolved status, and by reason", async () => {
    const open = await listTickets({ status: "open" });
    expect(open.rows.length).toBe(seeded.filter((t) => t.status === "open").length);
    expect(open.rows.every((r) => r.status === "open")).toBe(true);

    const all = await walk({ status: "all", pageSize: 25 });
    const allIds = all.flatMap((p) => p.rows.map((r) => r.id));
    expect(allIds).toEqual(
      seeded
        .filter((t) => t.status !== "resolved")
        .sort(newestFirst)
        .map((t) => t.id),
    );

    const byReason = await listTickets({ status: "all", reason: "forbidden_action" });
    expect(byReason.rows.map((r) => r.id)).toEqual(
      seeded
        .filter((t) => t.reason === "forbidden_action")
        .sort(newestFirst)
        .map((t) => t.id),
    );

    // A reason under the default statuses: resolved tickets share the reason but are not waiting.
    const draft = await listTickets({ reason: "draft_ready_for_review" });
    expect(draft.rows.every((r) => r.status === "needs_human")).toBe(true);
    expect(draft.rows.length).toBe(seeded.filter((t) => t.status === "needs_human").length);
  });

  it("pages older with no duplicates and no gaps, and back newer to the same pages", async () => {
    const expected = seeded
      .filter((t) => t.status !== "resolved")
      .sort(newestFirst)
      .map((t) => t.id);
    for (const pageSize of [1, 4, 5, 7, 59, 60]) {
      const pages = await walk({ status: "all", pageSize });
      const ids = pages.flatMap((p) => p.rows.map((r) => r.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expected);
      expect(pages.at(-1)!.olderCursor).toBeNull();
      expect(pages.slice(0, -1).every((p) => p.rows.length === pageSize)).toBe(true);

      // Back up again from the last page: the same pages in reverse, ending at the top page.
      let page = pages.at(-1)!;
      const back: string[][] = [];
      while (page.newerCursor) {
        page = await listTickets({ status: "all", pageSize, cursor: decodeCursor(page.newerCursor)! });
        back.push(page.rows.map((r) => r.id));
      }
      expect(back.reverse()).toEqual(pages.slice(0, -1).map((p) => p.rows.map((r) => r.id)));
    }
  });

  it("keeps paging stable while new tickets arrive", async () => {
    const { client } = testDb();
    const first = await listTickets({ status: "all", pageSize: 10 });
    await client.ticket.create({
      data: {
        source: "api",
        subject: "Arrived meanwhile",
        body: "b",
        customerEmail: "new@example.net",
        route: "guarded_agent",
        bundleVersion: "x",
        admission: "admitted",
        status: "needs_human",
      },
    });
    const second = await listTickets({ status: "all", pageSize: 10, cursor: decodeCursor(first.olderCursor!)! });
    const seen = new Set(first.rows.map((r) => r.id));
    expect(second.rows.some((r) => seen.has(r.id))).toBe(false);
    const top = await listTickets({ status: "all", pageSize: 10 });
    expect(top.rows[0]!.subject).toBe("Arrived meanwhile");
  });

  it("shows the latest live proposal's amount, the assignee and the customer's name", async () => {
    const { client } = testDb();
    const order = await makeOrder(client);
    const customer = await client.customer.findUniqueOrThrow({ where: { id: order.customerId } });
    const user = await client.user.create({
      data: { email: "rey@example.com", name: "Rey Reviewer", role: "REVIEWER", passwordHash: "x" },
    });
    const ticket = await client.ticket.create({
      data: {
        source: "api",
        subject: "With proposals",
        body: "b",
        customerEmail: customer.email,
        route: "guarded_agent",
        bundleVersion: "x",
        admission: "admitted",
        status: "needs_human",
        reason: "draft_ready_for_review",
        assigneeId: user.id,
        createdAt: new Date(BASE + 10_000 * 60_000),
      },
    });
    const run = await client.agentRun.create({
      data: {
        ticketId: ticket.id,
        mode: "live",
        planner: "rule",
        agentVersion: "a",
        bundleVersion: "b",
        policyVersion: "p",
        manifest: {},
        budgets: {},
      },
    });
    const proposal = (amountCents: number, at: number, simulated = false) =>
      client.refundProposal.create({
        data: {
          runId: run.id,
          ticketId: ticket.id,
          orderId: order.id,
          amountCents,
          currency: "USD",
          reason: "damaged",
          decision: "needs_human",
          policyVersion: "p",
          simulated,
          createdAt: new Date(BASE + at),
        },
      });
    await proposal(5000, 1);
    await proposal(7900, 2);
    await proposal(1234, 3, true); // simulated: moves nothing and waits for no one

    const page = await listTickets({});
    const row = page.rows.find((r) => r.id === ticket.id)!;
    expect(row).toMatchObject({
      proposed: { amountCents: 7900, currency: "USD" },
      assigneeName: "Rey Reviewer",
      customerName: customer.name,
    });
    expect(page.rows.filter((r) => r.id !== ticket.id).every((r) => r.proposed === null)).toBe(true);
  });

  it("reads its query string strictly: blank means unfiltered, unknown values are refused", () => {
    expect(ZQueueQuery.parse({ status: "", reason: "", cursor: "" })).toEqual({ status: undefined, reason: undefined, cursor: undefined });
    expect(ZQueueQuery.safeParse({ status: "resolved" }).success).toBe(false);
    expect(ZQueueQuery.safeParse({ reason: "made_up" }).success).toBe(false);
    expect(ZQueueQuery.safeParse({ cursor: "bm90LWEtY3Vyc29y" }).success).toBe(false);
  });
});
