// Request ids on the production server: every answer – a route handler, a page, the proxy's redirect
// – carries the caller's x-request-id when it is well-formed, and a fresh one otherwise, the id its
// log lines carry (lib/observability/http-requests.ts; the lines themselves are tested in
// lib/observability/request-logs.integration.test.ts).
import { expect, test } from "./fixtures";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

for (const [what, path] of [
  ["a route handler", "/api/health"],
  ["a page", "/signin"],
  ["the proxy's redirect of a signed-out visitor", "/ledger"],
] as const) {
  test(`${what} answers with the request's id`, async ({ request }) => {
    const kept = await request.get(path, { headers: { "x-request-id": "lb-7f3a9c21-0001" }, maxRedirects: 0 });
    expect(kept.headers()["x-request-id"]).toBe("lb-7f3a9c21-0001");
    const replaced = await request.get(path, { headers: { "x-request-id": "<script>" }, maxRedirects: 0 });
    expect(replaced.headers()["x-request-id"]).toMatch(UUID);
    const fresh = await request.get(path, { maxRedirects: 0 });
    expect(fresh.headers()["x-request-id"]).toMatch(UUID);
    expect(fresh.headers()["x-request-id"]).not.toBe(replaced.headers()["x-request-id"]);
  });
}
