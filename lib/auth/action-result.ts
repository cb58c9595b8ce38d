// The closed set of answers a server action or an authenticated route gives, and the pure core of
// the wrappers in authed.ts. Nothing here reads a session or imports Next.js: the session lookup and
// Next's interrupt re-throw are passed in, so the tests can drive every branch.
import { z } from "zod";
import { AppError, ERROR_CODES, GENERIC_ERROR, type TErrorCode } from "../contracts/app-error";
import { accessDecision, type TAccess } from "./access";
import type { Role } from "../contracts/roles";

export type TFieldErrors = Record<string, string[]>;

export type TActionResult<T extends object = object> =
  | ({ status: "ok" } & T)
  | { status: "invalid"; fieldErrors: TFieldErrors; formErrors: string[] }
  | { status: "unauthenticated" }
  | { status: "forbidden" }
  | { status: "error"; code: TErrorCode; message: string; field?: string };

export { GENERIC_ERROR };

/** A form's fields as a plain object: repeated names become arrays; Next's internal $ACTION fields are dropped. */
export function formDataToObject(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    if (key.startsWith("$ACTION")) continue;
    const values = form.getAll(key);
    out[key] = values.length === 1 ? values[0] : values;
  }
  return out;
}

export function toInvalid(error: z.ZodError): { status: "invalid"; fieldErrors: TFieldErrors; formErrors: string[] } {
  const flat = z.flattenError(error);
  const fieldErrors: TFieldErrors = {};
  for (const [key, messages] of Object.entries(flat.fieldErrors as Record<string, string[] | undefined>)) {
    if (messages && messages.length > 0) fieldErrors[key] = messages;
  }
  return { status: "invalid", fieldErrors, formErrors: flat.formErrors };
}

export interface TGuardDeps<U extends { role: Role }> {
  getUser: () => Promise<U | null>;
  /** Re-throws the framework's own control-flow errors (redirect, notFound, …); Next's unstable_rethrow. */
  rethrow: (error: unknown) => void;
  log: (error: unknown) => void;
}

type TFailure = Exclude<TActionResult, { status: "ok" }>;

/**
 * The checks every action and route runs, in this order: session first (an anonymous caller learns
 * nothing about the input's shape), then the role, then the input.
 */
export async function checkGuard<S extends z.ZodType, U extends { role: Role }>(
  getUser: () => Promise<U | null>,
  options: { access: TAccess; input: S },
  rawInput: unknown,
): Promise<{ status: "pass"; user: U; input: z.output<S> } | TFailure> {
  const user = await getUser();
  const decision = accessDecision(user, options.access);
  if (decision !== "ok") return { status: decision };
  const parsed = options.input.safeParse(rawInput instanceof FormData ? formDataToObject(rawInput) : rawInput);
  if (!parsed.success) return toInvalid(parsed.error);
  return { status: "pass", user: user!, input: parsed.data };
}

/** An error thrown by a handler, as a result: an AppError's code and message, or – for anything
 * else, which is logged – `internal` with the generic message. */
export function errorToResult<U extends { role: Role }>(
  deps: TGuardDeps<U>,
  error: unknown,
): { status: "error"; code: TErrorCode; message: string; field?: string } {
  deps.rethrow(error);
  if (error instanceof AppError)
    return { status: "error", code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) };
  deps.log(error);
  return { status: "error", code: "internal", message: GENERIC_ERROR };
}

/** Runs one action through checkGuard and the handler; expected errors become results. */
export async function runGuarded<S extends z.ZodType, U extends { role: Role }, T extends object>(
  deps: TGuardDeps<U>,
  options: { access: TAccess; input: S },
  handler: (ctx: { input: z.output<S>; user: U }) => Promise<T>,
  rawInput: unknown,
): Promise<TActionResult<T>> {
  try {
    const guard = await checkGuard(deps.getUser, options, rawInput);
    if (guard.status !== "pass") return guard;
    const result = await handler({ input: guard.input, user: guard.user });
    // The handler's fields first: a handler cannot turn its answer into anything but "ok".
    return { ...result, status: "ok" };
  } catch (error) {
    return errorToResult(deps, error);
  }
}

/** The HTTP status and JSON body a route handler answers for a result that is not "ok": the status of
 * the result's code in ERROR_CODES. */
export function resultToHttp(result: Exclude<TActionResult, { status: "ok" }>): { status: number; body: unknown } {
  switch (result.status) {
    case "unauthenticated":
    case "forbidden":
      return { status: ERROR_CODES[result.status].http, body: { error: result.status, code: result.status } };
    case "invalid":
      return {
        status: ERROR_CODES.invalid.http,
        body: { error: "invalid", code: "invalid", fieldErrors: result.fieldErrors, formErrors: result.formErrors },
      };
    case "error":
      return { status: ERROR_CODES[result.code].http, body: { error: "error", code: result.code, message: result.message } };
  }
}
