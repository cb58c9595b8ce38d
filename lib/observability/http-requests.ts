// Where a request enters the process: the HTTP server's "request" event, before Next.js routes it to
// the proxy, a page, a route handler or a server action. Taking it here, once, gives every line
// logged while the request is served – by the proxy, next-auth, a page, an action, the domain
// code below them – the request's id, with no wrapper to forget on a new route. The id is the
// caller's `x-request-id` when well-formed, else a new one; it replaces the request's own header (so
// the proxy, the handlers and the request's span see the same id) and is sent back on the response.
import { AsyncResource } from "node:async_hooks";
import http from "node:http";
import { withContext } from "./context";
import { logger } from "./logger";
import { REQUEST_ID_HEADER, requestIdFrom } from "./request-id";

const INSTALLED = Symbol.for("countersign.requestContext");

// Polled by load balancers, or fetched by every page view: at debug, so the info lines stay readable.
const QUIET_PATHS = [/^\/api\/health$/, /^\/_next\//, /^\/favicon\.ico$/];

/**
 * Runs every HTTP request this process serves in a context of its own (context.ts), and logs one
 * line when it ends: method, path (never the query string), status and duration. Idempotent.
 * `beforeRequest` sees each request first, before anything routes it (the server uses it to settle
 * the forwarded headers: lib/http/forwarded.ts). `answerEarly` may then answer a request itself and
 * return true, and Next.js never sees it (the server sheds sign-ins it has no capacity for:
 * lib/auth/shed-sign-in.ts); such a request is logged at debug, since a flood of them is what it
 * is there for.
 */
export function installRequestContext(
  options: {
    beforeRequest?: (req: http.IncomingMessage) => void;
    answerEarly?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
  } = {},
): void {
  const proto = http.Server.prototype as http.Server & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== "request") return emit.call(this, event, ...args);
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
    options.beforeRequest?.(req);
    const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    return withContext({ requestId }, () => {
      const started = performance.now();
      let answeredEarly = false;
      // Bound to the request's context: the line carries what the request learned (its user, …).
      res.once(
        "close",
        AsyncResource.bind(() => {
          const path = (req.url ?? "/").split("?")[0]!;
          const fields = {
            method: req.method,
            path,
            status: res.statusCode,
            durationMs: Math.round(performance.now() - started),
            ...(res.writableFinished ? {} : { aborted: true }),
          };
          if (answeredEarly || QUIET_PATHS.some((p) => p.test(path))) logger.debug(fields, "request");
          else logger.info(fields, "request");
        }),
      );
      answeredEarly = options.answerEarly?.(req, res) === true;
      return answeredEarly || emit.call(this, event, ...args);
    });
  } as typeof proto.emit;
}
