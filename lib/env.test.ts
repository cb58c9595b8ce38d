import { describe, expect, it } from "vitest";
import { EnvError, LEGACY_SIGNATURE_DEFAULT_UNTIL, describeEnvError, parseEnv } from "./env";

describe("parseEnv", () => {
  it("needs no settings for the embedded demo", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ databaseKind: "pglite", pgliteDir: ".data/pglite", PORT: 3000, demoSeed: true });
  });

  it("uses PostgreSQL for a postgres URL and does not seed demo users there by default", () => {
    const env = parseEnv({ DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/countersign" });
    expect(env).toMatchObject({ databaseKind: "postgres", demoSeed: false });
    expect(parseEnv({ DATABASE_URL: "postgres://h/db", DEMO_SEED: "true" }).demoSeed).toBe(true);
  });

  it.each([
    [{ DATABASE_URL: "mysql://root@localhost/db" }, "DATABASE_URL"],
    [{ PORT: "http" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ AUTH_SECRET: "short" }, "AUTH_SECRET"],
    [{ DEMO_SEED: "maybe" }, "DEMO_SEED"],
    [{ SIGNIN_MAX_FAILURES: "0" }, "SIGNIN_MAX_FAILURES"],
    [{ SIGNIN_ACCOUNT_DELAY_MAX_SECONDS: "61" }, "SIGNIN_ACCOUNT_DELAY_MAX_SECONDS"],
    [{ SIGNIN_HASH_CONCURRENCY: "0" }, "SIGNIN_HASH_CONCURRENCY"],
    [{ SIGNIN_HASH_QUEUE: "-1" }, "SIGNIN_HASH_QUEUE"],
    [{ LLM_BASE_URL: "localhost:11434" }, "LLM_BASE_URL"],
    [{ LLM_BASE_URL: "ftp://models.example/v1" }, "LLM_BASE_URL"],
    [{ LLM_TIMEOUT_MS: "soon" }, "LLM_TIMEOUT_MS"],
    [{ APP_URL: "countersign.example.com" }, "APP_URL"],
    [{ APP_URL: "javascript:alert(1)" }, "APP_URL"],
    [{ ALLOWED_ORIGINS: "https://a.example, https://b.example/admin" }, "ALLOWED_ORIGINS"],
    [{ ALLOWED_ORIGINS: "*" }, "ALLOWED_ORIGINS"],
    [{ ALLOWED_ORIGINS: "https://user:pw@a.example" }, "ALLOWED_ORIGINS"],
    [{ INTAKE_SECRETS: `${"n".repeat(40)},short` }, "INTAKE_SECRETS"],
    [{ INTAKE_SECRETS: "x".repeat(40), INTAKE_SECRET: "y".repeat(40) }, "INTAKE_SECRETS"],
    [{ INTAKE_SIGNATURE_TOLERANCE_SECONDS: "600" }, "INTAKE_SIGNATURE_TOLERANCE_SECONDS"],
    [{ INTAKE_SIGNATURE_TOLERANCE_SECONDS: "0" }, "INTAKE_SIGNATURE_TOLERANCE_SECONDS"],
    [{ INTAKE_LEGACY_SIGNATURE_UNTIL: "next spring" }, "INTAKE_LEGACY_SIGNATURE_UNTIL"],
    [{ INTAKE_LEGACY_SIGNATURE_UNTIL: "2027-02-30" }, "INTAKE_LEGACY_SIGNATURE_UNTIL"],
    [{ INTAKE_RATE_LIMIT: "-1" }, "INTAKE_RATE_LIMIT"],
    [{ OUTBOX_RATE_LIMIT_PER_ADDRESS: "many" }, "OUTBOX_RATE_LIMIT_PER_ADDRESS"],
    [{ HELPDESK_RATE_WINDOW_SECONDS: "0" }, "HELPDESK_RATE_WINDOW_SECONDS"],
    [{ ORDERS_SECRETS: "short" }, "ORDERS_SECRETS"],
    [{ ORDER_SOURCE: "woocommerce" }, "ORDER_SOURCE"],
    [{ ORDER_SOURCE: "shopify", SHOPIFY_SHOP_URL: "https://shop.example" }, "ORDER_SOURCE"],
    [{ ORDER_SOURCE: "shopify", SHOPIFY_SHOP_URL: "shop.example", SHOPIFY_ACCESS_TOKEN: "shpat_x" }, "SHOPIFY_SHOP_URL"],
    [{ SHOPIFY_API_VERSION: "latest" }, "SHOPIFY_API_VERSION"],
    [{ PAYMENTS_PROVIDER: "shopify", SHOPIFY_ACCESS_TOKEN: "shpat_x" }, "PAYMENTS_PROVIDER"],
    [{ PAYMENTS_PROVIDER: "paypal" }, "PAYMENTS_PROVIDER"],
  ])("names the bad variable in one line: %o", (source, variable) => {
    let caught: unknown;
    try {
      parseEnv(source);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EnvError);
    const line = describeEnvError(caught)!;
    expect(line).toContain(`Invalid setting ${variable}:`);
    expect(line).not.toContain("\n");
  });

  it("defaults the sign-in limits to a design in which no account is ever locked outright", () => {
    expect(parseEnv({})).toMatchObject({
      SIGNIN_MAX_FAILURES: 5,
      SIGNIN_MAX_FAILURES_PER_ADDRESS: 30,
      SIGNIN_ACCOUNT_DELAY_AFTER: 10,
      SIGNIN_ACCOUNT_DELAY_MAX_SECONDS: 5,
      SIGNIN_HASH_CONCURRENCY: 1,
      SIGNIN_HASH_QUEUE: 8,
    });
    expect(parseEnv({ SIGNIN_HASH_QUEUE: "0" }).SIGNIN_HASH_QUEUE).toBe(0);
  });

  it("accepts an OpenAI-compatible endpoint", () => {
    expect(parseEnv({ LLM_BASE_URL: "http://127.0.0.1:11434/v1", LLM_MODEL: "llama3.1:8b" })).toMatchObject({
      LLM_BASE_URL: "http://127.0.0.1:11434/v1",
      LLM_TIMEOUT_MS: 20_000,
    });
  });

  it("allows the origins of APP_URL and ALLOWED_ORIGINS to call actions, in canonical form; none set, the request's own host", () => {
    expect(parseEnv({}).allowedOrigins).toEqual([]);
    expect(
      parseEnv({
        APP_URL: "https://Countersign.example.com:443/queue",
        ALLOWED_ORIGINS: "http://support.example:8080/, https://countersign.example.com",
      }).allowedOrigins,
    ).toEqual(["https://countersign.example.com", "http://support.example:8080"]);
  });

  it("reads orders from the app's own tables unless told, with the orders API closed until its secrets are set", () => {
    expect(parseEnv({})).toMatchObject({ ORDER_SOURCE: "internal", SHOPIFY_API_VERSION: "2026-04" });
    expect(parseEnv({}).ORDERS_SECRETS).toBeUndefined();
    const shop = parseEnv({
      ORDER_SOURCE: "shopify",
      SHOPIFY_SHOP_URL: "https://your-shop.myshopify.com",
      SHOPIFY_ACCESS_TOKEN: "shpat_0123",
      ORDERS_SECRETS: `${"a".repeat(32)}, ${"b".repeat(32)}`,
    });
    expect(shop).toMatchObject({ ORDER_SOURCE: "shopify", SHOPIFY_CACHE_SECONDS: 60, ORDERS_SECRETS: ["a".repeat(32), "b".repeat(32)] });
  });

  it("treats an empty variable as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "" })).toMatchObject({ databaseKind: "pglite", PORT: 3000 });
  });

  it("reads the intake secrets in rotation, newest first, and the helpdesk's limits", () => {
    const env = parseEnv({ INTAKE_SECRETS: ` ${"n".repeat(40)} , ${"o".repeat(40)}` });
    expect(env.INTAKE_SECRETS).toEqual(["n".repeat(40), "o".repeat(40)]);
    expect(env).toMatchObject({
      INTAKE_SIGNATURE_TOLERANCE_SECONDS: 300,
      INTAKE_RATE_LIMIT: 600,
      INTAKE_RATE_LIMIT_PER_ADDRESS: 600,
      OUTBOX_RATE_LIMIT: 120,
      OUTBOX_RATE_LIMIT_PER_ADDRESS: 120,
      HELPDESK_RATE_WINDOW_SECONDS: 60,
    });
    expect(parseEnv({ INTAKE_RATE_LIMIT: "0" }).INTAKE_RATE_LIMIT).toBe(0);
  });

  it("accepts the deprecated intake signature until a date (UTC midnight), or not at all", () => {
    expect(parseEnv({}).INTAKE_LEGACY_SIGNATURE_UNTIL).toEqual(new Date(`${LEGACY_SIGNATURE_DEFAULT_UNTIL}T00:00:00Z`));
    expect(parseEnv({ INTAKE_LEGACY_SIGNATURE_UNTIL: "2026-12-31" }).INTAKE_LEGACY_SIGNATURE_UNTIL).toEqual(
      new Date("2026-12-31T00:00:00Z"),
    );
    expect(parseEnv({ INTAKE_LEGACY_SIGNATURE_UNTIL: "off" }).INTAKE_LEGACY_SIGNATURE_UNTIL).toBeNull();
  });
});
