// A server action call as a page makes it, held back so a test can replay it: with another cookie,
// another origin, or changed fields. Captured and aborted, never executed by the page itself.
import type { Page, Request } from "@playwright/test";

export interface TCapturedAction {
  url: string;
  /** What Next reads from an action call; cookies come from each caller's own context instead. */
  headers: Record<string, string>;
  body: Buffer;
}

const isActionCall = (method: string, headers: Record<string, string>) => method === "POST" && !!headers["next-action"];

/** Clicks through `trigger` with the action's request held back. */
export async function captureAction(page: Page, trigger: () => Promise<unknown>): Promise<TCapturedAction> {
  // Resolved from inside the handler once the call is aborted: waiting for the request event instead
  // let the route be removed before the handler ran, and the action reached the server.
  let aborted!: (request: Request) => void;
  const pending = new Promise<Request>((resolve) => (aborted = resolve));
  await page.route("**/*", async (route) => {
    const request = route.request();
    if (!isActionCall(request.method(), request.headers())) return route.fallback();
    await route.abort();
    aborted(request);
  });
  await trigger();
  const request = await pending;
  await page.unrouteAll({ behavior: "wait" });
  const all = await request.allHeaders();
  const headers: Record<string, string> = {};
  for (const name of ["accept", "content-type", "next-action", "next-router-state-tree", "origin"])
    if (all[name]) headers[name] = all[name];
  return { url: request.url(), headers, body: request.postDataBuffer() ?? Buffer.alloc(0) };
}
