// Rate limits on the endpoints the helpdesk calls (intake, outbox): requests per window per signing
// key and per client address, counted by rate-limiter-flexible in its PostgreSQL store – the
// "RateLimitCounter" table (lib/db/rate-limit-store.ts), so every instance on one PostgreSQL shares
// the counts and the embedded database keeps them across restarts like any other state.
//
// Only requests whose signature verified are counted: a request with a bad signature costs one HMAC
// and no database work, and counting it would cost more than refusing it. The key's and the
// address's counters are taken by two statements sent at once (one round trip of latency on
// PostgreSQL). A caller over a limit is then refused from memory until its window ends, without
// further statements (per instance: another instance counts it once more before refusing too).
import { RateLimiterRes, type RateLimiterPostgres } from "rate-limiter-flexible";
import { db, type Db } from "../db";
import { env } from "../env";
import { storedRateLimiter } from "../db/rate-limit-store";

export type THelpdeskEndpoint = "intake" | "outbox";

export interface TRateLimits {
  /** Requests per window per signing key; 0: no limit. */
  perKey: number;
  /** Requests per window per client address; 0: no limit. */
  perAddress: number;
  windowSeconds: number;
}

export type TRateVerdict = { ok: true } | { ok: false; limit: "key" | "address"; retryAfterSeconds: number };

export interface THelpdeskLimiter {
  /** Counts one request by `keyId` (a secret's fingerprint) from `address`, and says whether it is within both limits. */
  consume(input: { keyId: string; address: string | null }): Promise<TRateVerdict>;
}

function limiter(
  endpoint: THelpdeskEndpoint,
  per: "key" | "address",
  points: number,
  windowSeconds: number,
  client: () => Db,
): RateLimiterPostgres | null {
  if (points === 0) return null;
  // Past the limit, refused from memory until the window ends (no statement per refused request).
  return storedRateLimiter({ keyPrefix: `${endpoint}:${per}`, points, windowSeconds, client, inMemoryBlockOnConsumed: points + 1 });
}

async function take(limiter: RateLimiterPostgres | null, key: string): Promise<RateLimiterRes | null> {
  if (!limiter) return null;
  try {
    await limiter.consume(key);
    return null;
  } catch (refusal) {
    // The library rejects with its result when over the limit, and with the error otherwise.
    if (refusal instanceof RateLimiterRes) return refusal;
    throw refusal;
  }
}

/** A limiter for one endpoint with the given limits (tests make their own; the routes use configuredLimiter). */
export function helpdeskLimiter(endpoint: THelpdeskEndpoint, limits: TRateLimits, client: () => Db = db): THelpdeskLimiter {
  const byKey = limiter(endpoint, "key", limits.perKey, limits.windowSeconds, client);
  const byAddress = limiter(endpoint, "address", limits.perAddress, limits.windowSeconds, client);
  return {
    async consume({ keyId, address }) {
      const [key, from] = await Promise.all([take(byKey, keyId), take(byAddress, address ?? "unknown")]);
      const refused = key ? { limit: "key" as const, res: key } : from ? { limit: "address" as const, res: from } : null;
      if (!refused) return { ok: true };
      return { ok: false, limit: refused.limit, retryAfterSeconds: Math.max(1, Math.ceil(refused.res.msBeforeNext / 1000)) };
    },
  };
}

/** The limits the settings give an endpoint. */
export function configuredLimits(endpoint: THelpdeskEndpoint): TRateLimits {
  const e = env();
  return endpoint === "intake"
    ? { perKey: e.INTAKE_RATE_LIMIT, perAddress: e.INTAKE_RATE_LIMIT_PER_ADDRESS, windowSeconds: e.HELPDESK_RATE_WINDOW_SECONDS }
    : { perKey: e.OUTBOX_RATE_LIMIT, perAddress: e.OUTBOX_RATE_LIMIT_PER_ADDRESS, windowSeconds: e.HELPDESK_RATE_WINDOW_SECONDS };
}

// On globalThis: a bundler may load this module more than once, and the refusals held in memory
// belong to the process.
const g = globalThis as unknown as { __countersignLimiters?: Partial<Record<THelpdeskEndpoint, THelpdeskLimiter>> };

/** The process's limiter for an endpoint, with the configured limits. */
export function configuredLimiter(endpoint: THelpdeskEndpoint): THelpdeskLimiter {
  const limiters = (g.__countersignLimiters ??= {});
  return (limiters[endpoint] ??= helpdeskLimiter(endpoint, configuredLimits(endpoint)));
}

/** Retry-After for a refused request, as the HTTP header. */
export function retryAfterHeader(verdict: Extract<TRateVerdict, { ok: false }>): Record<string, string> {
  return { "retry-after": String(verdict.retryAfterSeconds) };
}
