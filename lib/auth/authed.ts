// The one way into a server action or an authenticated route handler (STYLE.md pattern 2): parse
// the input with zod, load the session, check the role, map expected errors to a typed result.
import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { accessDecision, type TAccess } from "./access";
import { checkGuard, errorToResult, resultToHttp, runGuarded, type TActionResult, type TGuardDeps } from "./action-result";
import { currentUser, type TSessionUser } from "./session";
import { annotateContext, subjectFields } from "../observability/context";
import { errorFields, logger } from "../observability/logger";

export { AppError } from "../contracts/app-error";
export type { TActionResult };

/** The session's user; from here on every line the request logs names them. */
async function sessionUser(): Promise<TSessionUser | null> {
  const user = await currentUser();
  if (user) annotateContext({ userId: user.id });
  return user;
}

const deps: TGuardDeps<TSessionUser> = {
  getUser: sessionUser,
  rethrow: unstable_rethrow,
  log: (error) => logger.error(errorFields(error), "action failed"),
};

/**
 * Wraps a server action. `area` is an area of AREAS or a list of roles. The returned function takes
 * the input as an object or a FormData and answers a closed union:
 * `{ status: "ok", ...handlerResult } | { status: "invalid", fieldErrors, formErrors }
 *  | { status: "unauthenticated" } | { status: "forbidden" } | { status: "error", code, message }`.
 * Domain functions throw AppError (lib/contracts/app-error.ts) for an expected refusal; it reaches
 * the page as its code and message, so actions need no try/catch. redirect() and friends pass
 * through. With useActionState: `useActionState((_prev, form: FormData) => action(form), null)`.
 *
 *   export const approve = authedAction({ area: "approve", input: ZApprove }, async ({ input, user }) => {
 *     return { decisionId: await decide({ ...input, actor: user }) };
 *   });
 */
export function authedAction<S extends z.ZodType, T extends object>(
  options: { area: TAccess; input: S },
  handler: (ctx: { input: z.output<S>; user: TSessionUser }) => Promise<T>,
): (input: z.input<S> | FormData) => Promise<TActionResult<T>> {
  // The ticket, run or approval the input names goes on the request's lines, once the input is valid.
  const described: typeof handler = (ctx) => {
    annotateContext(subjectFields(ctx.input));
    return handler(ctx);
  };
  return (input) => runGuarded(deps, { access: options.area, input: options.input }, described, input);
}

async function readRouteInput(request: Request): Promise<{ ok: true; value: unknown } | { ok: false }> {
  if (request.method === "GET" || request.method === "HEAD")
    return { ok: true, value: Object.fromEntries(new URL(request.url).searchParams) };
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data"))
      return { ok: true, value: await request.formData() };
    const text = await request.text();
    return { ok: true, value: text === "" ? undefined : JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function failure(result: Exclude<TActionResult, { status: "ok" }>): Response {
  const http = resultToHttp(result);
  return Response.json(http.body, { status: http.status, headers: { "cache-control": "no-store" } });
}

/**
 * Wraps a route handler for signed-in callers (machine callers that sign their requests use their
 * own check instead). The input is the query string for GET/HEAD, otherwise the JSON (or form) body.
 * Answers 401 `{error:"unauthenticated"}`, 403 `{error:"forbidden"}`, 400 `{error:"invalid",
 * fieldErrors, formErrors}`, or an AppError's code and message with its code's status (500 and
 * `internal` for anything else).
 *
 *   export const GET = authedRoute({ area: "ledger", input: ZQuery }, async ({ input }) => Response.json(…));
 */
export function authedRoute<S extends z.ZodType, C = unknown>(
  options: { area: TAccess; input: S },
  handler: (ctx: { request: Request; input: z.output<S>; user: TSessionUser; context: C }) => Promise<Response>,
): (request: Request, context: C) => Promise<Response> {
  return async (request, context) => {
    try {
      // Session and role before the body: a caller who may not use the route never has it read.
      const user = await sessionUser();
      const decision = accessDecision(user, options.area);
      if (decision !== "ok") return failure({ status: decision });
      const raw = await readRouteInput(request);
      if (!raw.ok) return failure({ status: "invalid", fieldErrors: {}, formErrors: ["The body is not valid JSON."] });
      const guard = await checkGuard(async () => user, { access: options.area, input: options.input }, raw.value);
      if (guard.status !== "pass") return failure(guard);
      return await handler({ request, input: guard.input, user: guard.user, context });
    } catch (error) {
      return failure(errorToResult(deps, error));
    }
  };
}
