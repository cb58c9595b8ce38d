// The ledger as CSV (RFC 4180), streamed in keyset batches so an export of any size holds one batch
// in memory, and read with the same filters as the ledger page.
import { db as defaultDb, type Db } from "../db";
import type { TKeysetCursor } from "../db/keyset";
import { POLICY_APPROVER, readLedgerBatch, toLedgerRows, type TLedgerApprover, type TLedgerFilters, type TLedgerRow } from "./list-ledger";

export const LEDGER_CSV_COLUMNS = [
  "created_at",
  "entry_id",
  "order_id",
  "amount",
  "currency",
  "kind",
  "actor_type",
  "actor_id",
  "actor_name",
  "approved_by",
  "approver_ids",
  "ticket_number",
  "approval_request_id",
  "idempotency_key",
  "provider",
  "provider_refund_id",
  "state",
  "failure_reason",
] as const;

/**
 * One field: quoted when it holds a comma, a quote or a line break (quotes doubled). Text that a
 * spreadsheet would run as a formula (=, +, -, @, tab, CR first) is prefixed with an apostrophe: an
 * order id typed by a customer must never execute on an accountant's machine.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(fields: readonly (string | number | null | undefined)[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}

/** Cents as a plain decimal ("79.00"): no thousands separators, so spreadsheets read a number. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Approvers in seat order, their words and their ids ("policy" for the dial: the Actor filter's value). */
const approverNames = (approvers: TLedgerApprover[]) =>
  approvers.map((a) => (a.kind === "person" ? a.name : POLICY_APPROVER.words)).join("; ");
const approverIds = (approvers: TLedgerApprover[]) =>
  approvers.map((a) => (a.kind === "person" ? a.userId : POLICY_APPROVER.filter)).join(";");

function rowFields(r: TLedgerRow) {
  return [
    r.createdAt.toISOString(),
    r.id,
    r.orderId,
    // Starts with a digit (ledger amounts are positive by a CHECK constraint), so never guarded.
    centsToDecimal(r.amountCents),
    r.currency,
    r.kind,
    r.actorType,
    r.actorId,
    r.actorName,
    approverNames(r.approvers),
    approverIds(r.approvers),
    r.ticket?.number ?? null,
    r.approvalRequestId,
    r.idempotencyKey,
    // Where the refund was executed, the provider's own id for it, and its state there (with the
    // provider's reason when it failed): what an accountant matches against the provider's report.
    r.provider,
    r.providerRefundId,
    r.state,
    r.failureReason,
  ] as const;
}

/** The header line, then one line per entry, newest first; `batchSize` rows per query. */
export async function* exportLedgerCsv(input: { filters?: TLedgerFilters; client?: Db; batchSize?: number }): AsyncGenerator<string> {
  const client = input.client ?? defaultDb();
  const filters = input.filters ?? {};
  const batchSize = input.batchSize ?? 1000;
  yield csvLine(LEDGER_CSV_COLUMNS);
  let cursor: TKeysetCursor | undefined;
  for (;;) {
    const batch = await readLedgerBatch({ client, filters, cursor, take: batchSize });
    if (batch.length === 0) return;
    const rows = await toLedgerRows(client, batch);
    yield rows.map((r) => csvLine(rowFields(r))).join("");
    if (batch.length < batchSize) return;
    const last = batch.at(-1)!;
    cursor = { direction: "older", createdAt: last.createdAt, id: last.id };
  }
}
