// Every setting the app reads, read once and validated. The embedded demo needs none of them.
// A wrong value stops start-up with one line naming the variable (see describeEnvError).
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { parseOriginSetting } from "./http/action-origin";
import { LOG_LEVELS, logLine } from "./observability/logger";

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const positiveInt = z.coerce.number({ message: "must be a whole number" }).int("must be a whole number").positive("must be positive");

const rateLimit = z.coerce
  .number({ message: "must be a whole number (0: no limit)" })
  .int("must be a whole number (0: no limit)")
  .min(0, "must be 0 (no limit) or more");

/** Until when the deprecated X-Countersign-Signature on intake bodies is accepted by default. */
export const LEGACY_SIGNATURE_DEFAULT_UNTIL = "2027-03-01";

const secret = z.string().min(32, "must be at least 32 characters (try: openssl rand -base64 32)").optional();
/** Signing secrets in rotation, newest first, comma-separated: at most 5, each at least 32 characters. */
const secretsInRotation = z
  .string()
  .transform((value) => value.split(",").map((s) => s.trim()))
  .pipe(
    z
      .array(z.string().min(32, "each secret must be at least 32 characters (try: openssl rand -base64 32)"))
      .min(1)
      .max(5, "at most 5 secrets at once"),
  )
  .optional();

export const ZEnv = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, "must be a postgres:// or postgresql:// URL (leave it unset for the embedded database)")
    .optional(),
  /**
   * PostgreSQL: the role that owns the tables, for migrations and grants. The app itself connects
   * with DATABASE_URL, which should name a role of its own (docs/operations.md, "Database roles"). Unused on
   * the embedded database.
   */
  MIGRATION_DATABASE_URL: z
    .string()
    .regex(
      /^postgres(ql)?:\/\/.+/,
      "must be a postgres:// or postgresql:// URL (the owner of the tables, on the same database as DATABASE_URL)",
    )
    .optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  PGLITE_DATA_DIR: z.string().min(1).optional(),
  AUTH_SECRET: secret,
  INTAKE_BUNDLE_KEY: secret,
  INTAKE_SECRET: secret,
  /**
   * The intake secrets in rotation, newest first, comma-separated: a delivery signed with any of them
   * is accepted; the first signs what the app sends (outbox answers, checkpoint answers). Instead of
   * INTAKE_SECRET, never beside it. A `whsec_…` secret is base64 after its prefix, as Standard
   * Webhooks issues them; any other is used as its UTF-8 bytes (lib/intake/webhook-signature.ts).
   */
  INTAKE_SECRETS: secretsInRotation,
  /** How far a Standard Webhooks delivery's timestamp may be from the server's clock, in seconds. */
  INTAKE_SIGNATURE_TOLERANCE_SECONDS: positiveInt
    .max(300, "must be at most 300 (the Standard Webhooks window the library enforces)")
    .default(300),
  /**
   * The last day the deprecated X-Countersign-Signature body signature is accepted on intake: a date
   * (YYYY-MM-DD, accepted until that day begins, UTC), or `off` to refuse it now.
   */
  INTAKE_LEGACY_SIGNATURE_UNTIL: z
    .union([z.literal("off"), z.iso.date({ message: "must be a date (YYYY-MM-DD) or off" })], {
      message: "must be a date (YYYY-MM-DD) or off",
    })
    .default(LEGACY_SIGNATURE_DEFAULT_UNTIL)
    .transform((value) => (value === "off" ? null : new Date(`${value}T00:00:00Z`))),
  /**
   * The secrets that sign deliveries to the orders API (PUT /api/orders/{id}, PUT /api/customers/{id}),
   * in rotation, newest first, comma-separated; the same form as INTAKE_SECRETS. Unset: the orders API
   * refuses every delivery (the demo's orders come from its seed).
   */
  ORDERS_SECRETS: secretsInRotation,
  /** Where orders and customers are read from: `internal` (the app's own tables, fed by the orders API) or `shopify`. */
  ORDER_SOURCE: z.enum(["internal", "shopify"], { message: "must be internal or shopify" }).default("internal"),
  /** The shop's Admin API origin, e.g. https://your-shop.myshopify.com (ORDER_SOURCE=shopify). */
  SHOPIFY_SHOP_URL: z
    .url({ message: "must be the shop's URL, e.g. https://your-shop.myshopify.com" })
    .regex(/^https?:\/\//, "must be an http(s) URL")
    .optional(),
  /** The Admin API access token of the shop's app (read_orders, read_customers; write_orders to refund). */
  SHOPIFY_ACCESS_TOKEN: z.string().min(1).optional(),
  SHOPIFY_API_VERSION: z
    .string()
    .regex(/^\d{4}-\d{2}$/, "must be an Admin API version, e.g. 2026-04")
    .default("2026-04"),
  /** How long an order read from the shop is used for a ticket's lookups before it is read again. */
  SHOPIFY_CACHE_SECONDS: z.coerce.number({ message: "must be a whole number" }).int().min(0).max(3600).default(60),
  /** Requests per rate window on the intake API per signing key, and per client address (0: no limit). */
  INTAKE_RATE_LIMIT: rateLimit.default(600),
  INTAKE_RATE_LIMIT_PER_ADDRESS: rateLimit.default(600),
  /** The same for the outbox (GET /api/outbox). */
  OUTBOX_RATE_LIMIT: rateLimit.default(120),
  OUTBOX_RATE_LIMIT_PER_ADDRESS: rateLimit.default(120),
  /** The window the helpdesk's rate limits count over. */
  HELPDESK_RATE_WINDOW_SECONDS: positiveInt.max(86_400, "must be at most 86400").default(60),
  PORT: z.coerce
    .number({ message: "must be a port number" })
    .int()
    .min(1, "must be a port number")
    .max(65535, "must be a port number")
    .default(3000),
  HOSTNAME: z.string().min(1).optional(),
  /**
   * How many reverse proxies stand in front of the app (lib/http/forwarded.ts). 0, the default: the
   * socket's address is the client and X-Forwarded-* headers are ignored.
   */
  TRUST_PROXY: z.coerce
    .number({ message: "must be a whole number of proxy hops (0 when clients connect directly)" })
    .int("must be a whole number of proxy hops")
    .min(0, "must be 0 or more")
    .max(10, "must be at most 10")
    .default(0),
  /**
   * The address people reach the app at (https://countersign.example.com): only pages from its
   * origin may call server actions, and an https one turns on HSTS. Unset: the host each request
   * was addressed to (lib/http/action-origin.ts).
   */
  APP_URL: z
    .url({ message: "must be the app's public http(s) URL, e.g. https://countersign.example.com" })
    .regex(/^https?:\/\//i, "must be the app's public http(s) URL, e.g. https://countersign.example.com")
    .optional(),
  /** More origins whose pages may call server actions, comma-separated (another name of the same app). */
  ALLOWED_ORIGINS: z
    .string()
    .transform((value, ctx) => {
      const origins: string[] = [];
      for (const entry of value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)) {
        // An origin is scheme, host and port: a path or a query would never match a browser's Origin.
        const origin = parseOriginSetting(entry);
        if (!origin) {
          ctx.addIssue({ code: "custom", message: `"${entry}" is not an origin (scheme://host[:port], e.g. https://support.example.com)` });
          return z.NEVER;
        }
        origins.push(origin);
      }
      return origins;
    })
    .optional(),
  /**
   * Hosts a notification webhook may point at although they resolve to an internal address (a
   * receiver on your own network), comma-separated, as written in the URL: `chat.internal,10.0.0.7`.
   * Every other internal address is refused (lib/policy/webhook-target.ts); the app's own never passes.
   */
  NOTIFY_WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((s) =>
          s
            .trim()
            .replace(/^\[|\]$/g, "")
            .toLowerCase(),
        )
        .filter(Boolean),
    )
    .optional(),
  /**
   * Encrypts the secrets kept among the database's settings (the notification webhook's URL and
   * signing secret), AES-256-GCM; by default a key file generated in DATA_DIR. Every instance and
   * worker on one database needs the same one.
   */
  SETTINGS_KEY: secret,
  DEMO_SEED: booleanFlag.optional(),
  /** Failed sign-ins for one account from one address, inside the window, before that pair is locked. */
  SIGNIN_MAX_FAILURES: positiveInt.default(5),
  /** Failed sign-ins from one address, across accounts, before the address is locked. */
  SIGNIN_MAX_FAILURES_PER_ADDRESS: positiveInt.default(30),
  SIGNIN_WINDOW_MINUTES: positiveInt.default(15),
  /** Failed sign-ins on one account, from any address, after which each attempt on it waits (never a lock). */
  SIGNIN_ACCOUNT_DELAY_AFTER: positiveInt.default(10),
  /** The longest that wait grows to. */
  SIGNIN_ACCOUNT_DELAY_MAX_SECONDS: positiveInt.max(60, "must be at most 60").default(5),
  /** Password checks (scrypt, 32 MiB each) one process runs at once; the rest wait in a short queue. */
  SIGNIN_HASH_CONCURRENCY: positiveInt.max(64, "must be at most 64").default(1),
  /** Password checks that may wait for a turn; beyond them a sign-in is refused at once ("try again"). */
  SIGNIN_HASH_QUEUE: z.coerce
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .max(1000, "must be at most 1000")
    .default(8),
  /**
   * OpenID Connect sign-in (lib/auth/oidc-settings.ts): the identity provider's issuer URL, as its
   * discovery document names it. Unset: passwords only. Set, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET too.
   */
  OIDC_ISSUER: z
    .url({ message: "must be the provider's issuer URL, e.g. https://login.example.com" })
    .regex(/^https?:\/\//, "must be an http(s) URL")
    .optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** The button's name on the sign-in page ("Sign in with …"). */
  OIDC_NAME: z.string().min(1).max(60).default("your identity provider"),
  /** The ID token claim that lists the person's groups (a list of strings, or one string). */
  OIDC_ROLE_CLAIM: z.string().min(1).default("groups"),
  /** Groups to roles, `group=ROLE` comma-separated; the highest role a person's groups give wins. */
  OIDC_ROLE_MAP: z.string().optional(),
  /** Any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp server). */
  LLM_BASE_URL: z
    .url({ message: "must be an http(s) URL, e.g. http://127.0.0.1:11434/v1" })
    .regex(/^https?:\/\//, "must be an http(s) URL")
    .optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: positiveInt.max(600_000, "must be at most 600000").default(20_000),
  /** Requests a minute the model endpoint allows, counted together by every process on the database; 0: no limit. */
  LLM_REQUESTS_PER_MINUTE: z.coerce
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .default(0),
  /** Tokens (prompt and answer) a minute the model endpoint allows, counted like the requests; 0: no limit. */
  LLM_TOKENS_PER_MINUTE: z.coerce
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .default(0),
  /**
   * What each model costs, in US dollars per million tokens, by model id (as the endpoint names it):
   * JSON, e.g. {"gpt-4o-mini":{"input":0.15,"output":0.6,"cachedInput":0.075}}. A run's cost is its
   * tokens × these (lib/agent/run-cost.ts); a model with no price leaves its runs' cost unknown.
   */
  MODEL_PRICES: z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: 'must be JSON, e.g. {"gpt-4o-mini":{"input":0.15,"output":0.6,"cachedInput":0.075}}' });
        return z.NEVER;
      }
    })
    .pipe(
      z.record(
        z.string().min(1),
        z.strictObject({
          input: z.number().min(0, "prices are 0 or more"),
          output: z.number().min(0, "prices are 0 or more"),
          cachedInput: z.number().min(0, "prices are 0 or more").optional(),
        }),
        { message: "must map model ids to {input, output, cachedInput} prices per million tokens" },
      ),
    )
    .optional(),
  /** Where the episode datasets a lead may evaluate from /evals are (every *.jsonl but questions.jsonl), from the app's root. */
  EVAL_DATASET_DIR: z.string().min(1).default("eval"),
  /** Lets `npm run eval` store its receipt through the running server (POST /api/evals/receipts); generated in DATA_DIR when unset. */
  EVAL_SECRET: secret,
  /** Agent runs of batches (bulk runs, shadow passes) one process works on at once; the model's limits pace them. */
  AGENT_RUN_CONCURRENCY: positiveInt.max(256, "must be at most 256").default(16),
  /** `off`: this server runs no job worker (run `npm run worker` beside it; PostgreSQL only). */
  WORKER: z.enum(["on", "off"], { message: "must be on or off" }).default("on"),
  /** How long a job may stay taken before another worker may take it again (a killed worker's jobs). */
  JOB_LOCK_SECONDS: positiveInt.max(3600, "must be at most 3600").default(30),
  /** The Ed25519 private key (PKCS#8 PEM) that signs audit checkpoints; by default a key file in DATA_DIR. */
  AUDIT_SIGNING_KEY: z
    .string()
    .includes("PRIVATE KEY", { message: "must be a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)" })
    .optional(),
  /** Where signed checkpoints are appended, outside the database; by default DATA_DIR/audit-checkpoints.jsonl. */
  AUDIT_CHECKPOINT_FILE: z.string().min(1).optional(),
  /** A live run's lease: renewed every third of it while the run works; expired means interrupted. */
  RUN_LEASE_SECONDS: positiveInt.max(3600, "must be at most 3600").default(30),
  /** The lowest level of the JSON log lines written (lib/observability/logger.ts reads it too, before this check runs). */
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  /**
   * Where approved refunds are executed (lib/payments/): `ledger-only` (the ledger row is the whole
   * effect, the demo's default), `stripe`, or `shopify` (refundCreate in the shop of SHOPIFY_SHOP_URL,
   * against the order's Shopify gid). The `payments.*` settings in the database, when set, win.
   */
  PAYMENTS_PROVIDER: z.enum(["ledger-only", "stripe", "shopify"], { message: "must be ledger-only, stripe or shopify" }).optional(),
  /** Stripe's secret API key (sk_live_…, sk_test_… or a restricted rk_… that may create and read refunds). */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** The signing secret of the Stripe webhook endpoint registered for /api/payments/stripe (whsec_…). */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Stripe's API address; unset: Stripe's own (https://api.stripe.com). For a local stand-in under test. */
  STRIPE_API_URL: z
    .url({ message: "must be an http(s) URL, e.g. http://127.0.0.1:12111" })
    .regex(/^https?:\/\//, "must be an http(s) URL")
    .optional(),
  /**
   * Where approved replies go (lib/delivery): `outbox` (the default: the helpdesk reads GET /api/outbox),
   * `webhook` (a Standard Webhooks signed POST to REPLY_WEBHOOK_URL), `zendesk` (a public comment on the
   * customer's Zendesk ticket) or `email` (SMTP, threaded to the customer's message).
   */
  REPLY_CHANNEL: z
    .enum(["outbox", "webhook", "zendesk", "email"], { message: "must be outbox, webhook, zendesk or email" })
    .default("outbox"),
  REPLY_WEBHOOK_URL: z
    .url({ message: "must be an http(s) URL" })
    .regex(/^https?:\/\//, "must be an http(s) URL")
    .optional(),
  /** Signs each reply posted to REPLY_WEBHOOK_URL (Standard Webhooks; a `whsec_…` secret is base64 after its prefix). */
  REPLY_WEBHOOK_SECRET: secret,
  /** Zendesk's API root, e.g. https://your-team.zendesk.com/api/v2 (node-zendesk's endpointUri). */
  ZENDESK_URL: z
    .url({ message: "must be Zendesk's API URL, e.g. https://your-team.zendesk.com/api/v2" })
    .regex(/^https?:\/\//, "must be an http(s) URL")
    .optional(),
  /** The agent's email address and API token the replies are posted as. */
  ZENDESK_EMAIL: z.email({ message: "must be the Zendesk agent's email address" }).optional(),
  ZENDESK_API_TOKEN: z.string().min(1).optional(),
  /** The signing secret of the Zendesk webhook that posts new tickets to POST /api/helpdesk/zendesk. */
  ZENDESK_WEBHOOK_SECRET: z.string().min(16, "must be the webhook's signing secret (Zendesk shows it on the webhook)").optional(),
  /** The SMTP server replies are sent through (REPLY_CHANNEL=email), e.g. smtps://user:pass@smtp.example.com:465. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/.+/, "must be an smtp:// or smtps:// URL")
    .optional(),
  /** The From address of emailed replies. */
  REPLY_FROM: z.string().min(3).optional(),
  /** Adds the disclosure line to replies an automated assistant drafted (EU AI Act art. 50). */
  REPLY_DISCLOSURE: booleanFlag.default(false),
  /** The disclosure's language (lib/delivery/disclosure.ts). */
  REPLY_DISCLOSURE_LOCALE: z.enum(["en", "de", "fr", "es", "it", "nl"], { message: "must be en, de, fr, es, it or nl" }).default("en"),
  /** Who reviewed the reply, as the disclosure names them; unset: "our support team" in the disclosure's language. */
  REPLY_DISCLOSURE_REVIEWER: z.string().min(1).max(100).optional(),
  /** Traces and metrics go over OTLP/HTTP to this URL; unset, no OpenTelemetry SDK is even loaded (lib/observability/telemetry.ts). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({ message: "must be an http(s) URL, e.g. http://127.0.0.1:4318" })
    .regex(/^https?:\/\//, "must be an http(s) URL, e.g. http://127.0.0.1:4318")
    .optional(),
});

export type TEnv = z.infer<typeof ZEnv> & {
  /** Where the embedded database lives (unused on PostgreSQL). */
  pgliteDir: string;
  databaseKind: "pglite" | "postgres";
  /** Whether the demo users, orders, documents and tickets are seeded on start. */
  demoSeed: boolean;
  /** APP_URL's origin and ALLOWED_ORIGINS, canonical; empty: each request's own host. */
  allowedOrigins: string[];
};

export class EnvError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`Invalid setting ${variable}: ${problem}`);
    this.name = "EnvError";
  }
}

/** Parses an environment (process.env by default). Throws EnvError naming the first bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): TEnv {
  // An empty variable means "not set", as in most shells' `FOO= cmd`.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = ZEnv.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new EnvError(String(issue.path[0] ?? "environment"), issue.message);
  }
  const env = parsed.data;
  if (env.INTAKE_SECRET && env.INTAKE_SECRETS)
    throw new EnvError(
      "INTAKE_SECRETS",
      "set INTAKE_SECRETS or INTAKE_SECRET, not both (put the old INTAKE_SECRET last in INTAKE_SECRETS to rotate it out)",
    );
  if (env.ORDER_SOURCE === "shopify" && (!env.SHOPIFY_SHOP_URL || !env.SHOPIFY_ACCESS_TOKEN))
    throw new EnvError("ORDER_SOURCE", "shopify needs SHOPIFY_SHOP_URL and SHOPIFY_ACCESS_TOKEN");
  if (env.PAYMENTS_PROVIDER === "shopify" && (!env.SHOPIFY_SHOP_URL || !env.SHOPIFY_ACCESS_TOKEN))
    throw new EnvError("PAYMENTS_PROVIDER", "shopify needs SHOPIFY_SHOP_URL and SHOPIFY_ACCESS_TOKEN");
  const channelNeeds = {
    outbox: [],
    webhook: ["REPLY_WEBHOOK_URL", "REPLY_WEBHOOK_SECRET"],
    zendesk: ["ZENDESK_URL", "ZENDESK_EMAIL", "ZENDESK_API_TOKEN"],
    email: ["SMTP_URL", "REPLY_FROM"],
  } as const;
  const missing = channelNeeds[env.REPLY_CHANNEL].filter((name) => !env[name]);
  if (missing.length) throw new EnvError("REPLY_CHANNEL", `${env.REPLY_CHANNEL} needs ${missing.join(" and ")}`);
  const databaseKind = env.DATABASE_URL ? "postgres" : "pglite";
  return {
    ...env,
    pgliteDir: env.PGLITE_DATA_DIR ?? join(env.DATA_DIR, "pglite"),
    databaseKind,
    demoSeed: env.DEMO_SEED ?? databaseKind === "pglite",
    allowedOrigins: [...new Set([...(env.APP_URL ? [new URL(env.APP_URL).origin] : []), ...(env.ALLOWED_ORIGINS ?? [])])],
  };
}

const cache = globalThis as unknown as { __countersignEnv?: TEnv; __countersignSecrets?: Partial<Record<string, string>> };

export function env(): TEnv {
  cache.__countersignEnv ??= parseEnv();
  return cache.__countersignEnv;
}

/**
 * A secret from its variable when given; otherwise one generated on first use and kept in the data
 * directory, so the embedded demo works with no settings and survives a restart. Several instances
 * on one PostgreSQL must be given the same value through the variable.
 */
function generatedSecret(
  variable: "AUTH_SECRET" | "INTAKE_BUNDLE_KEY" | "INTAKE_SECRET" | "SETTINGS_KEY" | "EVAL_SECRET",
  purpose: string,
  log: (line: string) => void,
): string {
  const cached = cache.__countersignSecrets?.[variable];
  if (cached) return cached;
  const e = env();
  let value = e[variable];
  if (!value) {
    const name = variable.toLowerCase().replaceAll("_", "-");
    const file = resolve(e.DATA_DIR, name);
    if (!existsSync(file)) {
      mkdirSync(resolve(e.DATA_DIR), { recursive: true });
      try {
        writeFileSync(file, randomBytes(32).toString("base64url") + "\n", { mode: 0o600, flag: "wx" });
        log(`No ${variable} set: created ${purpose} in ${join(e.DATA_DIR, name)} (set ${variable} to use your own).`);
      } catch (error) {
        // Another process created it between our check and our write: use theirs.
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
    value = readFileSync(file, "utf8").trim();
  }
  (cache.__countersignSecrets ??= {})[variable] = value;
  return value;
}

/** Signs and verifies session tokens. */
export const authSecret = (log: (line: string) => void = logLine) => generatedSecret("AUTH_SECRET", "a session secret", log);
/** The built-in intake classifier bundle's key: it signs the routes the bundle assigns. */
export const intakeBundleKey = (log: (line: string) => void = logLine) =>
  generatedSecret("INTAKE_BUNDLE_KEY", "the intake bundle key", log);
/** Shared by the server and `npm run eval`: the CLI stores a receipt through the server with it. */
export const evalSecret = (log: (line: string) => void = logLine) => generatedSecret("EVAL_SECRET", "the evaluation receipts secret", log);
/** Encrypts the secrets stored among the settings (lib/policy/secret-settings.ts). */
export const settingsKey = (log: (line: string) => void = logLine) => generatedSecret("SETTINGS_KEY", "the settings encryption key", log);
/**
 * Shared with the helpdesk: the secrets in rotation, newest first (INTAKE_SECRETS; otherwise
 * INTAKE_SECRET or the generated one alone). A signed request is accepted with any of them.
 */
export function intakeSecrets(log: (line: string) => void = logLine): readonly string[] {
  const rotation = env().INTAKE_SECRETS;
  return rotation ?? [generatedSecret("INTAKE_SECRET", "the intake API secret", log)];
}
/** The newest intake secret: it signs what the app sends the helpdesk (outbox and checkpoint answers). */
export const intakeSecret = (log: (line: string) => void = logLine) => intakeSecrets(log)[0]!;

/**
 * The address links sent outside the app point at (the approval notifications' ticket links):
 * APP_URL without a trailing slash, or this server on localhost when it is unset. Set APP_URL
 * wherever anyone outside this machine follows those links.
 */
export function appBaseUrl(e: Pick<TEnv, "APP_URL" | "PORT"> = env()): string {
  return e.APP_URL ? e.APP_URL.replace(/\/+$/, "") : `http://localhost:${e.PORT}`;
}

/** One line for a person: the variable and what is wrong with it. */
export function describeEnvError(error: unknown): string | undefined {
  return error instanceof EnvError ? error.message : undefined;
}
