// The ledger as a CSV download, streamed: the same filters as /ledger, every matching row.
import { authedRoute } from "@/lib/auth/authed";
import { streamedDownload } from "@/lib/http/download";
import { exportLedgerCsv } from "@/lib/ledger/export-ledger-csv";
import { ZLedgerFilters } from "@/lib/ledger/list-ledger";

export const dynamic = "force-dynamic";

export const GET = authedRoute({ area: "ledger", input: ZLedgerFilters }, async ({ input }) => {
  const day = new Date().toISOString().slice(0, 10);
  return streamedDownload(exportLedgerCsv({ filters: input }), {
    contentType: "text/csv; charset=utf-8",
    filename: `countersign-ledger-${day}.csv`,
    what: "ledger export",
  });
});
