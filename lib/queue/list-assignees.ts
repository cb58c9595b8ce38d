// The people a ticket may be assigned to: active, in a role that works tickets (assign-ticket.ts).
import { AREAS } from "../contracts/roles";
import { db as defaultDb, type Db } from "../db";

export async function listAssignees(input: { client?: Db } = {}): Promise<{ id: string; name: string; role: string }[]> {
  const client = input.client ?? defaultDb();
  return client.user.findMany({
    where: { active: true, role: { in: [...AREAS.approve] } },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: { id: true, name: true, role: true },
  });
}
