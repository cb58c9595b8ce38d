// The ledger as a CSV download, streamed: the same filters as /ledger, every matching row.
import { authedRoute } from "@/lib/auth/authed";
import { exportLedgerCsv } from "@/lib/ledger/export-ledger-csv";
import { ZLedgerFilters } from "@/lib/ledger/list-ledger";
import { errorFields, logger } from "@/lib/observability/logger";

export const dynamic = "force-dynamic";

export const GET = authedRoute({ area: "ledger", input: ZLedgerFilters }, async ({ input }) => {
  const lines = exportLedgerCsv({ filters: input });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await lines.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (error) {
        // Headers are gone by now: abort the download so it cannot be mistaken for a complete file.
        logger.error(errorFields(error), "ledger export failed mid-stream");
        controller.error(error);
      }
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="countersign-ledger-${day}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
