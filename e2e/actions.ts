// A server action call as a page makes it, held back so a test can replay it: with another cookie,
// another origin, or changed fields. Captured and aborted, never executed by the page itself.
import type { Page } from "@playwright/test";

export interface TCapturedAction {
  url: string;
  /** What Next reads from an action call; cookies come from each caller's own context instead. */
  headers: Record<string, string>;
  body: Buffer;
}

const isActionCall = (method: string, headers: Record<string, string>) => method === "POST" && !!headers["next-action"];

/** Clicks through `trigger` with the action's request held back. */
export async function captureAction(page: Page, trigger: () => Promise<unknown>): Promise<TCapturedAction> {
  await page.route("**/*", (route) => (isActionCall(route.request().method(), route.request().headers()) ? route.abort() : route.fallback()));
  const pending = page.waitForRequest((r) => isActionCall(r.method(), r.headers()));
  await trigger();
  const request = await pending;
  await page.unrouteAll({ behavior: "ignoreErrors" });
  const all = await request.allHeaders();
  const headers: Record<string, string> = {};
  for (const name of ["accept", "content-type", "next-action", "next-router-state-tree", "origin"]) if (all[name]) headers[name] = all[name];
  return { url: request.url(), headers, body: request.postDataBuffer() ?? Buffer.alloc(0) };
}
