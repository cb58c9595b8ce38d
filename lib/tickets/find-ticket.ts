import { db as defaultDb, type Db } from "../db";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A ticket by what a person would type: its number ("6" or "#6"), its id, or its external id. */
export async function findTicket(ref: string, client: Db = defaultDb()) {
  const trimmed = ref.trim().replace(/^#/, "");
  if (/^\d+$/.test(trimmed)) return client.ticket.findUnique({ where: { number: Number(trimmed) } });
  if (UUID.test(trimmed)) return client.ticket.findUnique({ where: { id: trimmed } });
  return client.ticket.findUnique({ where: { externalId: trimmed } });
}
