// How fast this app may call a model endpoint: requests and tokens a minute (LLM_REQUESTS_PER_MINUTE,
// LLM_TOKENS_PER_MINUTE), counted in the shared rate-limit table so every process on the database –
// the server's worker and any number of `npm run worker`s – counts together, and a hold-off after the
// endpoint answered 429, which every process honours until its Retry-After has passed. With neither
// limit set nothing is counted in the database, and a 429 holds off only the process that received it. A call waits
// for its turn rather than failing: the provider's limit is a pace, not an error.
//
// The windows are the library's fixed ones (a minute from the first request in it): within one, no
// more than the limit is sent. What a call waited is added to the wait meter of the work it belongs to
// (a batch's item shows it), never to the model's latency.
import { AsyncLocalStorage } from "node:async_hooks";
import { RateLimiterRes, type RateLimiterPostgres } from "rate-limiter-flexible";
import { db, type Db } from "../db";
import { env } from "../env";
import { storedRateLimiter } from "../db/rate-limit-store";

export interface TModelLimits {
  /** 0: no limit. */
  requestsPerMinute: number;
  /** 0: no limit. */
  tokensPerMinute: number;
}

export interface TModelLimiter {
  /** Waits until the endpoint may take one more request, and counts it; resolves to the milliseconds waited. */
  admit(signal?: AbortSignal): Promise<number>;
  /** Counts the tokens (prompt and answer) a call used. */
  spend(tokens: number): Promise<void>;
  /** The endpoint answered 429: every process holds off for `ms` (its Retry-After). */
  holdOff(ms: number): Promise<void>;
}

const WINDOW_SECONDS = 60;

/** A wait that ends early, rejecting, when the signal aborts (the run's time budget). */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => (clearTimeout(timer), reject(signal!.reason));
    const timer = setTimeout(() => (signal?.removeEventListener("abort", onAbort), resolve()), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** How long a counter says to wait, or 0 when it has room. */
async function refusedFor(limiter: RateLimiterPostgres, key: string, points: number): Promise<number> {
  const res = await limiter.get(key);
  return res && res.consumedPoints >= points ? Math.max(1, res.msBeforeNext) : 0;
}

/**
 * The limiter of an endpoint no limit is set for: nothing is counted and no statement is sent per
 * call (a grading worker or a test has no shared table to count in); a 429 holds this process's calls
 * off for its Retry-After.
 */
function unlimitedModelLimiter(): TModelLimiter {
  let heldUntil = 0;
  return {
    async admit(signal) {
      const wait = Math.max(0, heldUntil - Date.now());
      if (wait > 0) await pause(wait, signal);
      const waits = meter.getStore();
      if (waits) waits.ms += wait;
      return wait;
    },
    async spend() {},
    async holdOff(ms) {
      heldUntil = Math.max(heldUntil, Date.now() + Math.max(1, ms));
    },
  };
}

/** The limiter of one endpoint (tests make their own; calls use configuredModelLimiter). With no limit
 * set it counts nothing in the database (unlimitedModelLimiter). */
export function modelLimiter(endpoint: string, limits: TModelLimits, client: () => Db = db): TModelLimiter {
  if (limits.requestsPerMinute <= 0 && limits.tokensPerMinute <= 0) return unlimitedModelLimiter();
  const counter = (kind: string, points: number) =>
    points > 0 ? storedRateLimiter({ keyPrefix: `llm:${kind}`, points, windowSeconds: WINDOW_SECONDS, client }) : null;
  const requests = counter("requests", limits.requestsPerMinute);
  const tokens = counter("tokens", limits.tokensPerMinute);
  // One point a second: blocked (consumed past its one point) while a 429's Retry-After runs.
  const hold = storedRateLimiter({ keyPrefix: "llm:hold", points: 1, windowSeconds: 1, client });

  /** What stands in the way of one more request now, in milliseconds (0: nothing). */
  async function blockedFor(): Promise<number> {
    const held = await refusedFor(hold, endpoint, 2);
    if (held) return held;
    if (tokens) {
      const spent = await refusedFor(tokens, endpoint, limits.tokensPerMinute);
      if (spent) return spent;
    }
    if (!requests) return 0;
    try {
      await requests.consume(endpoint);
      return 0;
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return Math.max(1, refusal.msBeforeNext);
      throw refusal;
    }
  }

  return {
    async admit(signal) {
      let waited = 0;
      for (;;) {
        const ms = await blockedFor();
        if (!ms) break;
        // A little spread, so the processes that waited for the same window do not all ask at its first millisecond.
        const wait = ms + Math.floor(Math.random() * 50);
        await pause(wait, signal);
        waited += wait;
      }
      const waits = meter.getStore();
      if (waits) waits.ms += waited;
      return waited;
    },
    async spend(used) {
      if (tokens && used > 0) await tokens.penalty(endpoint, used);
    },
    async holdOff(ms) {
      await hold.block(endpoint, Math.max(1, ms) / 1000);
    },
  };
}

/** The limits the settings give every model endpoint. */
export function configuredModelLimits(): TModelLimits {
  const e = env();
  return { requestsPerMinute: e.LLM_REQUESTS_PER_MINUTE, tokensPerMinute: e.LLM_TOKENS_PER_MINUTE };
}

// On globalThis: a bundler may load this module more than once, and one endpoint has one limiter a process.
const g = globalThis as unknown as { __countersignModelLimiters?: Map<string, TModelLimiter> };

/** The process's limiter for an endpoint (its base URL and model), with the configured limits. */
export function configuredModelLimiter(config: { baseURL: string; model: string }): TModelLimiter {
  const limiters = (g.__countersignModelLimiters ??= new Map());
  const endpoint = `${config.baseURL} ${config.model}`;
  let limiter = limiters.get(endpoint);
  if (!limiter) limiters.set(endpoint, (limiter = modelLimiter(endpoint, configuredModelLimits())));
  return limiter;
}

/** What the model calls of one piece of work (a batch's item) waited for their turn, in milliseconds. */
export class LimiterWaits {
  ms = 0;
  /** Runs `work`, adding what every model call inside it waits to `ms` as it goes. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return meter.run(this, work);
  }
}
const meter = new AsyncLocalStorage<LimiterWaits>();
