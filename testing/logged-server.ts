// Child process for the tests that need real HTTP (request-logs.integration.test.ts, through
// testing/app-server.ts the sign-in limits): the app's own route handlers (intake, outbox, health,
// next-auth, the orders API) behind Node's HTTP server, with the request entry hook the production server installs
// (installRequestContext settling the forwarded headers, as instrumentation-node.ts does), and the
// app's logger on standard output – the lines the test reads. Its first line names the port.
// The database: DATABASE_URL's when set (the test's own clone); PGLITE_DATA_DIR's when that is set,
// migrated and held as the production server holds it (eval-through-server.integration.test.ts);
// otherwise an in-memory PGlite loaded from the migrated template (lib/db/migrated-template.ts).
import { register } from "node:module";

// As Vitest's alias does: `server-only` marks modules for Next's bundler and means nothing under Node.
const hooks = `
export async function resolve(specifier, context, next) {
  return specifier === "server-only" ? { url: "data:text/javascript,export {}", shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);

const { createServer } = await import("node:http");
const { openDb, useDb } = await import("../lib/db");
const { migratedPglite } = await import("../lib/db/migrated-template");
const { seedDemo } = await import("../prisma/seed/demo");
const { installRequestContext } = await import("../lib/observability/http-requests");
const { normaliseForwarded } = await import("../lib/http/forwarded");
const { env } = await import("../lib/env");
const { shedSignIn } = await import("../lib/auth/shed-sign-in");
const { logger } = await import("../lib/observability/logger");

if (process.env.DATABASE_URL) {
  useDb(openDb({ kind: "postgres", url: process.env.DATABASE_URL, max: 4 }));
} else if (process.env.PGLITE_DATA_DIR) {
  const { deployMigrations } = await import("../lib/db/migrate");
  const target = { kind: "pglite", dir: process.env.PGLITE_DATA_DIR, dataDir: process.env.DATA_DIR } as const;
  await deployMigrations(target);
  useDb(openDb(target));
} else {
  // Loaded from the migrated template the test files' databases start from, not migrated again.
  useDb(openDb({ kind: "pglite", pglite: await migratedPglite() }));
}
const { db } = await import("../lib/db");
await seedDemo(db());

type THandler = (request: Request) => Promise<Response>;
const intake = await import("../app/api/intake/tickets/route");
const outbox = await import("../app/api/outbox/route");
const health = await import("../app/api/health/route");
const auth = await import("../app/api/auth/[...nextauth]/route");
const orders = await import("../app/api/orders/[id]/route");
const customers = await import("../app/api/customers/[id]/route");
const receipts = await import("../app/api/evals/receipts/route");
/** A dynamic route's handler, given its one path parameter as Next.js gives it. */
const withId =
  (handler: (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>): THandler =>
  (request) =>
    handler(request, { params: Promise.resolve({ id: decodeURIComponent(new URL(request.url).pathname.split("/").pop()!) }) });
const ROUTES: { method: string; path: RegExp; handler: THandler }[] = [
  { method: "POST", path: /^\/api\/intake\/tickets$/, handler: intake.POST },
  { method: "GET", path: /^\/api\/outbox$/, handler: outbox.GET },
  { method: "GET", path: /^\/api\/health$/, handler: () => health.GET() },
  { method: "PUT", path: /^\/api\/orders\/[^/]+$/, handler: withId(orders.PUT) },
  { method: "PUT", path: /^\/api\/customers\/[^/]+$/, handler: withId(customers.PUT) },
  { method: "POST", path: /^\/api\/evals\/receipts$/, handler: receipts.POST },
  { method: "GET", path: /^\/api\/auth\//, handler: auth.GET as unknown as THandler },
  { method: "POST", path: /^\/api\/auth\//, handler: auth.POST as unknown as THandler },
];

// The same entry hook as the production server (instrumentation-node.ts): the forwarded headers are
// settled under TRUST_PROXY before any handler reads them, and sign-ins beyond the bound on password
// checks are shed.
installRequestContext({
  beforeRequest: (req) => normaliseForwarded(req, env().TRUST_PROXY),
  answerEarly: (req, res) => shedSignIn(req, res),
});
const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
  const route = ROUTES.find((r) => r.method === req.method && r.path.test(url.pathname));
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  const response = await route.handler(
    new Request(url, { method: req.method, headers, body: req.method === "GET" ? undefined : Buffer.concat(chunks) }),
  );
  res.statusCode = response.status;
  response.headers.forEach((value, name) => name !== "set-cookie" && res.setHeader(name, value));
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  res.end(Buffer.from(await response.arrayBuffer()));
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  logger.info({ port: typeof address === "object" && address ? address.port : null }, "listening");
});
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => process.exit(0));
