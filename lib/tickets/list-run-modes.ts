// Which runs of the agent a ticket page offers: only those that can do something. A live run is a
// lifecycle move (start_run) and is offered only from the statuses that move starts from; a
// simulated run changes nothing, so a resolved ticket still offers one ("what would the agent do").
// A bypassed ticket (at intake, or at the agent's door since) offers neither: the door refuses it
// before any planner or tool, whatever the mode, so a run could only repeat the bypass; a person
// resolves it by hand.
import type { Admission, RunMode, TicketStatus } from "../../generated/prisma/enums";
import { TICKET_MOVES } from "./lifecycle";

export function listRunModes(ticket: { status: TicketStatus; admission: Admission }): RunMode[] {
  if (ticket.admission === "bypassed" || ticket.status === "bypassed") return [];
  const live = (TICKET_MOVES.start_run.from as readonly TicketStatus[]).includes(ticket.status);
  return live ? ["simulate", "live"] : ["simulate"];
}
