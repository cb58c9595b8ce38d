// What a log line is about, carried along the async calls of one unit of work – a request, a job, an
// agent run – so no caller threads ids by hand: whoever learns an id adds it, and every line logged
// after it (anywhere below, in any module) carries it.
//
// One AsyncLocalStorage for the process, kept on globalThis: a bundler may load this module more
// than once (the server's instrumentation and its pages are separate bundles), and a context set up
// by one copy must be seen by the logger of every other.
import { AsyncLocalStorage } from "node:async_hooks";

export interface TLogContext {
  requestId?: string;
  userId?: string;
  ticketId?: string;
  runId?: string;
  approvalId?: string;
  jobId?: string;
  queue?: string;
}

const CONTEXT_KEYS = [
  "requestId",
  "userId",
  "ticketId",
  "runId",
  "approvalId",
  "jobId",
  "queue",
] as const satisfies readonly (keyof TLogContext)[];

const g = globalThis as unknown as { __countersignLogContext?: AsyncLocalStorage<TLogContext> };
const storage: AsyncLocalStorage<TLogContext> = (g.__countersignLogContext ??= new AsyncLocalStorage<TLogContext>());

/** The context of the work running now (empty outside any). */
export function currentContext(): Readonly<TLogContext> {
  return storage.getStore() ?? {};
}

/** Only the known ids, and only strings: what a caller passes may be any object (a job's data, an action's input). */
export function contextFields(source: unknown): TLogContext {
  const out: TLogContext = {};
  if (!source || typeof source !== "object") return out;
  for (const key of CONTEXT_KEYS) {
    const value = (source as Record<string, unknown>)[key];
    if (typeof value === "string" && value.length > 0 && value.length <= 200) out[key] = value;
  }
  return out;
}

/** The ids of what an input or a job's data is about (ticket, run, approval); never whom it names as a user. */
export function subjectFields(source: unknown): TLogContext {
  const { ticketId, runId, approvalId } = contextFields(source);
  return { ticketId, runId, approvalId };
}

/** Runs `fn` in a context of its own: the current one plus `fields`. What `fn` adds stays inside it. */
export function withContext<T>(fields: TLogContext, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...contextFields(fields) }, fn);
}

/**
 * Adds ids to the unit of work running now (the request or job), for every line it logs from here
 * on: the user once the session is read, the ticket or approval an action names. Outside any unit it
 * does nothing.
 */
export function annotateContext(fields: TLogContext): void {
  const store = storage.getStore();
  if (store) Object.assign(store, contextFields(fields));
}

/**
 * Adds ids for the rest of the calling async function and everything it starts, but not for its
 * caller once it returns: an agent run inside a request or a job, whose id exists only once the run
 * has begun. (AsyncLocalStorage.enterWith: the caller's own awaits keep the context they had.)
 */
export function enterContext(fields: TLogContext): void {
  storage.enterWith({ ...storage.getStore(), ...contextFields(fields) });
}
