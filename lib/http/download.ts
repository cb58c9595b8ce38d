// A download streamed from an async generator of text chunks (the ledger's CSV, the audit export):
// one chunk in memory at a time. Headers go out with the first chunk, so a failure after it can only
// abort the download, which is then visibly incomplete (a CSV cut short, an export with no seal).
import { errorFields, logger } from "../observability/logger";

export function streamedDownload(
  chunks: AsyncGenerator<string>,
  options: { contentType: string; filename: string; what: string; first?: string },
): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (options.first !== undefined) controller.enqueue(encoder.encode(options.first));
    },
    async pull(controller) {
      try {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (error) {
        logger.error(errorFields(error), `${options.what} failed mid-stream`);
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": options.contentType,
      "content-disposition": `attachment; filename="${options.filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
