// A lifecycle move written as part of a larger statement, so that a caller moves the ticket together
// with the rows that go with the move (a run, its approval request) in one round trip. The move is
// the same compare-and-set as moveTicket's, by the same rules (lifecycle.ts): the row is locked, and
// the update matches only while the locked row's status is one the move starts from.
import type { TicketStatus } from "../../../generated/prisma/enums";
import { Prisma } from "../../db";
import { moveRefusal, moveRule, type TTicketMove } from "../lifecycle";

/** What a statement with a move in it reports about the move (the select-list items of `columns`). */
export interface TTicketMoveColumns {
  /** The status the move started from; null when it was refused or not attempted. */
  ticketPrevious: TicketStatus | null;
  /** The ticket's status under its row lock, before the move; null when there is no such ticket. */
  ticketCurrent: TicketStatus | null;
}

export interface TTicketMoveSql {
  /** Two CTEs for a WITH clause: `ticket_before` (the row, locked) and `ticket_moved` (the move). */
  ctes: Prisma.Sql;
  /** Select-list items reading them, named as in TTicketMoveColumns. */
  columns: Prisma.Sql;
  /** The move made, or the refusal (moveRefusal) for the status the locked row had. */
  result(row: TTicketMoveColumns): { from: TicketStatus; to: TicketStatus };
}

/**
 * `when`, a condition on the rest of the statement (the run still holds its lease), makes the move
 * conditional; a move whose condition is false is not made, and `result` reports it as refused.
 */
export function ticketMoveSql(input: {
  ticketId: string;
  move: TTicketMove;
  to?: TicketStatus;
  reason?: string | null;
  when?: Prisma.Sql;
}): TTicketMoveSql {
  const { to, from } = moveRule(input);
  // Locked first, then the update that is the check: whatever raced us first is what the locked
  // row shows, and what a refusal reports.
  const ctes = Prisma.sql`ticket_before AS (SELECT id, status FROM "Ticket" WHERE id = ${input.ticketId}::uuid FOR UPDATE),
    ticket_moved AS (
      UPDATE "Ticket" t SET "status" = ${to}::"TicketStatus", "reason" = ${input.reason ?? null}, "updatedAt" = now()
      FROM ticket_before old
      WHERE t.id = old.id AND old.status::text = ANY(${[...from]}::text[])${input.when ? Prisma.sql` AND (${input.when})` : Prisma.empty}
      RETURNING old.status AS previous)`;
  return {
    ctes,
    columns: Prisma.sql`(SELECT previous::text FROM ticket_moved) AS "ticketPrevious", (SELECT status::text FROM ticket_before) AS "ticketCurrent"`,
    result(row) {
      if (row.ticketPrevious) return { from: row.ticketPrevious, to };
      throw moveRefusal(input.move, row.ticketCurrent);
    },
  };
}
