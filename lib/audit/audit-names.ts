// The names of the people a list of audit events mentions, for describeAuditEvent: the acting
// person, the person a user.* event is about, an assignee. One query for the whole list, however
// many events name however many people; a person since removed is simply not in the map.
import { db as defaultDb, type Db } from "../db";

export interface TNamedEvent {
  actorType: string;
  actorId: string | null;
  subjectType: string;
  subjectId: string | null;
  inputs: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every user id an event mentions. Actor ids of other kinds (a run, "refund-worker") are not people. */
export function mentionedUserIds(e: TNamedEvent): string[] {
  const inputs = (e.inputs && typeof e.inputs === "object" ? e.inputs : {}) as Record<string, unknown>;
  return [
    e.actorType === "user" ? e.actorId : null,
    e.subjectType === "user" ? e.subjectId : null,
    inputs.assigneeId,
    inputs.previousAssigneeId,
  ].filter((id): id is string => typeof id === "string" && UUID.test(id));
}

export async function loadAuditNames(input: { events: readonly TNamedEvent[]; client?: Db }): Promise<Map<string, string>> {
  const ids = [...new Set(input.events.flatMap(mentionedUserIds))];
  if (ids.length === 0) return new Map();
  const users = await (input.client ?? defaultDb()).user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(users.map((u) => [u.id, u.name]));
}
