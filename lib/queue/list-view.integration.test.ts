import { beforeAll, describe, expect, it } from "vitest";
import type { Role, TicketStatus } from "../../generated/prisma/enums";
import { useTestDb } from "../../testing/db";
import { decodeCursor } from "../db/keyset";
import type { TQueuePage } from "./list-tickets";
import { listView } from "./list-view";
import { QUEUE_VIEWS, type TQueueView } from "./queue-views";
import { viewCounts } from "./view-counts";
import { currentApprovalVersions } from "../policy/approval-versions";
import { corpusHash } from "../policy/corpus-hash";
import { DEFAULT_SETTINGS } from "../policy/settings";

const testDb = useTestDb();
const NOW = Date.now();
const hoursAgo = (h: number) => new Date(NOW - h * 3_600_000);

type TSpec = {
  status: TicketStatus;
  hours: number;
  assignee?: "me" | "other";
  pending?: Role;
  madeUnder?: "another policy" | "another agent" | "another corpus";
};
// Each ticket: its status, its age, who holds it, the role a pending request on it needs, and what
// changed since the request was made (none: made under the current policy, agent and corpus).
const SPECS: TSpec[] = [
  { status: "needs_human", hours: 30, pending: "REVIEWER", madeUnder: "another policy" },
  { status: "needs_human", hours: 50, pending: "SPECIALIST", assignee: "me" },
  { status: "needs_human", hours: 2, pending: "SPECIALIST", madeUnder: "another agent" },
  { status: "needs_human", hours: 40 },
  { status: "blocked", hours: 10, assignee: "other" },
  { status: "bypassed", hours: 5 },
  { status: "bypassed", hours: 60, assignee: "me" },
  { status: "open", hours: 1 },
  { status: "running", hours: 3, assignee: "me" },
  { status: "resolved", hours: 100, assignee: "me" },
  { status: "resolved", hours: 90 },
  { status: "completed", hours: 20 },
  // Made before a policy document was published: the corpus it was made under is no longer in effect.
  { status: "needs_human", hours: 45, pending: "REVIEWER", madeUnder: "another corpus" },
];

let me: string;
let ids: string[];

/** Which tickets each view must hold: the definition, written out independently of the queries. */
function expected(view: TQueueView): number[] {
  const open = (s: TSpec) => s.status !== "resolved";
  const pick: Record<TQueueView, (s: TSpec) => boolean> = {
    open,
    mine: (s) => open(s) && s.assignee === "me",
    unassigned: (s) => open(s) && !s.assignee,
    bypassed: (s) => s.status === "bypassed",
    handoff: (s) => (s.status === "needs_human" || s.status === "blocked") && !s.pending,
    approval: (s) => !!s.pending,
    specialist: (s) => s.pending === "SPECIALIST",
    stale: (s) => !!s.pending && !!s.madeUnder,
  };
  return SPECS.map((s, i) => ({ s, i }))
    .filter(({ s }) => pick[view](s))
    .sort((a, b) => b.s.hours - a.s.hours)
    .map(({ i }) => i);
}

async function walk(view: TQueueView): Promise<TQueuePage[]> {
  const pages = [await listView({ view, userId: me, pageSize: 2 })];
  while (pages.at(-1)!.newerCursor) {
    pages.push(await listView({ view, userId: me, pageSize: 2, cursor: decodeCursor(pages.at(-1)!.newerCursor!)! }));
    if (pages.length > 20) throw new Error("paging does not end");
  }
  return pages;
}

beforeAll(async () => {
  const { client } = testDb();
  const user = (role: Role, email: string) =>
    client.user.create({ data: { email, name: email, role, passwordHash: "x" }, select: { id: true } });
  me = (await user("REVIEWER", "me@example.com")).id;
  const other = (await user("REVIEWER", "other@example.com")).id;
  ids = [];
  for (const [i, s] of SPECS.entries()) {
    const t = await client.ticket.create({
      data: {
        source: "seed",
        subject: `Ticket ${i}`,
        body: "Help.",
        customerEmail: "c@example.net",
        route: "guarded_agent",
        bundleVersion: "intake-rules-2026.11",
        admission: s.status === "bypassed" ? "bypassed" : "admitted",
        status: s.status,
        createdAt: hoursAgo(s.hours),
        assigneeId: s.assignee === "me" ? me : s.assignee === "other" ? other : null,
      },
      select: { id: true },
    });
    ids.push(t.id);
    if (s.pending) {
      const now = currentApprovalVersions(DEFAULT_SETTINGS, await corpusHash(client));
      const made = {
        policyVersion: s.madeUnder === "another policy" ? "refund-policy-v1+0000000000" : now.policyVersion,
        agentVersion: s.madeUnder === "another agent" ? "refund-agent-v0" : now.agentVersion,
        corpusHash: s.madeUnder === "another corpus" ? "0".repeat(64) : now.corpusHash,
      };
      await client.approvalRequest.create({
        data: {
          ticketId: t.id,
          kind: "reply",
          digest: "d".repeat(64),
          operation: {},
          ...made,
          bundleVersion: "b",
          requiredRole: s.pending,
          expiresAt: new Date(NOW + 3_600_000),
        },
      });
    }
  }
});

describe("listView", () => {
  it.each(QUEUE_VIEWS)("%s: every ticket of the view, oldest first, each once, paging forward", async (view) => {
    const pages = await walk(view);
    expect(pages.flatMap((p) => p.rows.map((r) => ids.indexOf(r.id)))).toEqual(expected(view));
    expect(pages[0]!.order).toBe("oldest");
  });

  it("pages back to the same pages", async () => {
    const pages = await walk("open");
    const back = await listView({ view: "open", userId: me, pageSize: 2, cursor: decodeCursor(pages[2]!.olderCursor!)! });
    expect(back.rows.map((r) => r.id)).toEqual(pages[1]!.rows.map((r) => r.id));
    expect(pages[0]!.olderCursor).toBeNull();
  });

  it("marks the SLA from the settings' targets: overdue, due soon, on track, none", async () => {
    const { rows } = await listView({ view: "open", userId: me });
    const sla = (i: number) => rows.find((r) => r.id === ids[i])!.sla;
    // Defaults: 4 h for approval, 24 h for a hand-off.
    expect(sla(1)).toMatchObject({ kind: "approval", targetHours: 4, state: "overdue" });
    expect(sla(2)).toMatchObject({ kind: "approval", state: "on_track" });
    expect(sla(4)).toMatchObject({ kind: "handoff", targetHours: 24, state: "on_track" });
    expect(sla(11)).toBeNull();
    expect(rows.find((r) => r.id === ids[1])!.pendingRole).toBe("SPECIALIST");
    // A request made under another policy, agent or corpus is marked stale; one made under the current ones is not.
    expect([0, 1, 2, 12].map((i) => rows.find((r) => r.id === ids[i])!.pendingStale)).toEqual([true, false, true, true]);
    await testDb().client.setting.create({ data: { key: "queue.slaHandoffHours", value: 12 } });
    const later = await listView({ view: "handoff", userId: me });
    expect(later.rows.find((r) => r.id === ids[4])!.sla).toMatchObject({ targetHours: 12, state: "due_soon" });
    await testDb().client.setting.delete({ where: { key: "queue.slaHandoffHours" } });
  });
});

describe("viewCounts", () => {
  it("counts what each view lists, and shares one reading for up to 10 seconds", async () => {
    const { client } = testDb();
    const at = new Date("2030-01-01T00:00:00.000Z");
    const counts = await viewCounts({ userId: me, now: at, client });
    for (const view of QUEUE_VIEWS) expect([view, counts[view]]).toEqual([view, expected(view).length]);

    await client.ticket.update({ where: { id: ids[7]! }, data: { assigneeId: me } });
    const cached = await viewCounts({ userId: me, now: new Date(at.getTime() + 9_999), client });
    expect([cached.mine, cached.unassigned]).toEqual([counts.mine, counts.unassigned]);
    const fresh = await viewCounts({ userId: me, now: new Date(at.getTime() + 10_000), client });
    expect([fresh.mine, fresh.unassigned]).toEqual([counts.mine + 1, counts.unassigned - 1]);
    await client.ticket.update({ where: { id: ids[7]! }, data: { assigneeId: null } });
  });
});
