import { describe, expect, it } from "vitest";
import { TicketStatus } from "../../generated/prisma/enums";
import { listRunModes } from "./list-run-modes";

describe("listRunModes", () => {
  it("offers a live run only where the lifecycle lets one start", () => {
    const live = Object.values(TicketStatus).filter((status) => listRunModes({ status, admission: "admitted" }).includes("live"));
    expect(live.sort()).toEqual(["blocked", "completed", "needs_human", "open"]);
  });

  it("offers a resolved ticket a simulated run only", () => {
    expect(listRunModes({ status: "resolved", admission: "admitted" })).toEqual(["simulate"]);
  });

  it("offers a bypassed ticket no run at all: bypassed at intake, in any status, or at the agent's door", () => {
    for (const status of Object.values(TicketStatus)) expect(listRunModes({ status, admission: "bypassed" }), status).toEqual([]);
    expect(listRunModes({ status: "bypassed", admission: "admitted" })).toEqual([]);
  });
});
