// A customer's data export (GDPR Art. 15): everything held about them as JSON. An admin requests it
// (audited, a job enqueued in the same transaction); the job gathers it; an admin downloads it once
// (audited), which empties it. An erasure discards an export not yet downloaded.
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import { db as defaultDb, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { enqueue } from "../jobs/queue";
import { SUBJECT_EXPORT_JOB } from "../jobs/definitions";
import { customerTicketIds } from "./erase-customer";
import { fillExportRow, insertExportRow, takeExportRow } from "./store/export-store";

type TAdmin = { id: string; role: Role };

function assertAdmin(actor: TAdmin, what: string) {
  if (!mayUse(actor.role, "admin")) throw new AppError("forbidden", `Only an admin may ${what} a customer's data export.`);
}

export async function requestSubjectExport(input: { customerId: string; actor: TAdmin; client?: Db }): Promise<{ exportId: string }> {
  assertAdmin(input.actor, "request");
  const client = input.client ?? defaultDb();
  return client.$transaction(async (tx) => {
    const customer = await tx.customer.findUnique({ where: { id: input.customerId }, select: { id: true, erasedAt: true } });
    if (!customer || customer.erasedAt) throw new AppError("not_found", "There is no such customer (or their data was erased).");
    const row = await insertExportRow(tx, { customerId: customer.id, requestedById: input.actor.id });
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: input.actor.id,
      action: "customer.export_requested",
      subjectType: "customer",
      subjectId: customer.id,
      inputs: { exportId: row.id },
    });
    await enqueue(tx, SUBJECT_EXPORT_JOB, { exportId: row.id }, { id: row.id });
    return { exportId: row.id };
  });
}

/** The job: gathers the export's data; false when it was filled already or discarded. */
export async function buildSubjectExport(input: { exportId: string; client?: Db }): Promise<boolean> {
  const client = input.client ?? defaultDb();
  return client.$transaction(async (tx) => {
    const row = await tx.subjectExport.findUnique({ where: { id: input.exportId } });
    if (!row || row.status !== "pending") return false;
    const customer = await tx.customer.findUniqueOrThrow({
      where: { id: row.customerId },
      select: { id: true, name: true, email: true, flagged: true, createdAt: true, orders: true },
    });
    const ticketIds = await customerTicketIds(tx, customer.id, customer.email);
    const tickets = await tx.ticket.findMany({
      where: { id: { in: ticketIds } },
      orderBy: { createdAt: "asc" },
      select: {
        number: true,
        subject: true,
        body: true,
        status: true,
        orderRef: true,
        createdAt: true,
        messages: { orderBy: { createdAt: "asc" }, select: { kind: true, authorType: true, body: true, createdAt: true } },
        runs: { orderBy: { startedAt: "asc" }, select: { status: true, reason: true, draft: true, startedAt: true } },
        approvals: {
          orderBy: { createdAt: "asc" },
          select: {
            kind: true,
            status: true,
            draft: true,
            createdAt: true,
            decisions: { select: { decision: true, note: true, editedReply: true, createdAt: true } },
          },
        },
        outbox: { select: { body: true, createdAt: true, deliveredAt: true } },
      },
    });
    const refunds = await tx.ledgerEntry.findMany({
      where: { orderId: { in: customer.orders.map((o) => o.id) } },
      orderBy: { createdAt: "asc" },
      select: { orderId: true, amountCents: true, currency: true, state: true, createdAt: true },
    });
    const { orders, ...person } = customer;
    return fillExportRow(tx, row.id, { exportedAt: new Date().toISOString(), customer: person, orders, tickets, refunds });
  });
}

/** The export's data, once: the download empties it, and a second is refused. */
export async function downloadSubjectExport(input: { exportId: string; actor: TAdmin; client?: Db }): Promise<unknown> {
  assertAdmin(input.actor, "download");
  const client = input.client ?? defaultDb();
  return client.$transaction(async (tx) => {
    const taken = await takeExportRow(tx, input.exportId, input.actor.id);
    if (!taken) throw new AppError("export_unavailable", "This export is not ready, was downloaded already, or was discarded.");
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: input.actor.id,
      action: "customer.export_downloaded",
      subjectType: "customer",
      subjectId: taken.customerId,
      inputs: { exportId: input.exportId },
    });
    return taken.data;
  });
}

export interface TExportListing {
  id: string;
  customerId: string;
  status: "pending" | "ready" | "downloaded" | "discarded";
  createdAt: Date;
  readyAt: Date | null;
  downloadedAt: Date | null;
}

/** The latest exports for the admin page, newest first: their state, never their data. */
export async function listSubjectExports(input: { limit?: number; client?: Db } = {}): Promise<TExportListing[]> {
  const rows = await (input.client ?? defaultDb()).subjectExport.findMany({
    orderBy: { createdAt: "desc" },
    take: input.limit ?? 10,
    select: { id: true, customerId: true, status: true, createdAt: true, readyAt: true, downloadedAt: true },
  });
  return rows as TExportListing[];
}
