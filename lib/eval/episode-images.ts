// The grading databases: the world's database, migrated and seeded once; the image of it every other
// grader opens its own copy from; and what an episode is cloned from on any of them – the seeded
// tickets, the template orders and the users by role – each read once per database, since no
// episode changes them (an episode copies its order and writes its own ticket).
import { IN_MEMORY_SETTINGS, newPglite, withSettings } from "../db/pglite";
import { migratedPglite } from "../db/migrated-template";
import type { PrismaClient } from "../../generated/prisma/client";
import { openDb, type DbHandle } from "../db";
import { readOrderTemplate, type TOrderTemplate } from "../orders/order-store";
import type { TEpisode } from "./episode";

type TDecidingRole = NonNullable<TEpisode["approval"]>["as"];

/** Writes the world the episodes are written against into a fresh grading database: for the dataset
 * in eval/, the demo seed (prisma/seed/demo.ts). The caller's to give: the grader knows no seed data. */
export type TGradingWorld = (client: PrismaClient) => Promise<unknown>;

/**
 * PGlite's settings for a grading database, for memory: everything it holds lives in the process. Its
 * data (the migrated schema, the world, a few rows an episode) is a few MB, so 8 MB of shared buffers
 * hold it; more is only memory held per worker. Its write-ahead log is in memory too, in 16 MB
 * segments: by default (max_wal_size 1 GB) a checkpoint comes so rarely that grading a few hundred
 * episodes grows the log by a segment or more, each kept; at 32 MB a checkpoint recycles them.
 * Together, with `npm run eval`'s smaller young generation (package.json), about 100 MB less at the
 * command's peak, at the same speed (docs/performance.md, "Grading").
 */
const GRADING_START = withSettings({ ...IN_MEMORY_SETTINGS, max_wal_size: "32MB", min_wal_size: "32MB" });

/**
 * A fresh in-memory database, migrated, with the episodes' world written into it. It starts from the
 * migrated template (migrated-template.ts): PGlite's initdb and the migrations run once per set of
 * migrations, not once per command.
 */
export async function openGradingDatabase(world: TGradingWorld): Promise<DbHandle> {
  const pglite = await migratedPglite({ startParams: GRADING_START });
  const handle = openDb({ kind: "pglite", pglite });
  await world(handle.client);
  return { ...handle, close: async () => (await handle.close(), await pglite.close()) };
}

/**
 * The migrated database with its world, as the data directory's bytes: what each worker opens. In
 * shared memory, so every worker reads the one copy. Creating a database (initdb, the migrations) is
 * the costly part of opening one, in time and in memory; opening an image skips it.
 */
export async function gradingImage(world: DbHandle): Promise<SharedArrayBuffer> {
  const bytes = new Uint8Array(await (await world.pglite!.dumpDataDir("none")).arrayBuffer());
  const image = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(image).set(bytes);
  return image;
}

/** A database opened from a grading image (gradingImage). */
export async function openGradingImage(image: SharedArrayBuffer): Promise<DbHandle> {
  // A Blob takes no view of shared memory: slice() copies into an ordinary buffer.
  const pglite = newPglite({ loadDataDir: new Blob([new Uint8Array(image).slice()]), startParams: GRADING_START });
  const handle = openDb({ kind: "pglite", pglite });
  return { ...handle, close: async () => (await handle.close(), await pglite.close()) };
}

export interface TSeededTicket {
  subject: string;
  body: string;
  route: "guarded_agent" | "human_review_now" | null;
  bundleVersion: string | null;
  orderRef: string | null;
}

/** One grading database and what its episodes are cloned from, each read the first time it is asked for. */
export interface TGradingDb {
  client: PrismaClient;
  seeded: Map<string, TSeededTicket>;
  templates: Map<string, TOrderTemplate>;
  users: Map<string, { id: string; role: string }>;
}

export function gradingDb(client: PrismaClient): TGradingDb {
  return { client, seeded: new Map(), templates: new Map(), users: new Map() };
}

/** A seeded ticket an episode copies (`{"seeded": externalId}`). */
export async function seededTicket(g: TGradingDb, externalId: string): Promise<TSeededTicket> {
  let seed = g.seeded.get(externalId);
  if (!seed) {
    const row = await g.client.ticket.findUnique({ where: { externalId }, select: { subject: true, body: true, route: true, bundleVersion: true, orderRef: true } });
    if (!row) throw new Error(`no seeded ticket ${externalId}`);
    seed = row;
    g.seeded.set(externalId, seed);
  }
  return seed;
}

/** A template order an episode's order is a copy of. */
export async function orderTemplate(g: TGradingDb, orderId: string): Promise<TOrderTemplate> {
  let template = g.templates.get(orderId);
  if (!template) {
    template = await readOrderTemplate(g.client, orderId);
    g.templates.set(orderId, template);
  }
  return template;
}

/** The world's user of a role: who decides an episode's approval. */
export async function userOfRole(g: TGradingDb, role: TDecidingRole): Promise<{ id: string; role: string }> {
  let user = g.users.get(role);
  if (!user) {
    user = await g.client.user.findFirstOrThrow({ where: { role }, select: { id: true, role: true } });
    g.users.set(role, user);
  }
  return user;
}
