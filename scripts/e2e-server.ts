// The server the Playwright suite drives: a fresh database for the run, migrated and seeded with the
// demo data, then `next start` on the test build (.next-test, or E2E_DIST_DIR). On PostgreSQL (DATABASE_URL set) the
// database is a sibling named <database>_e2e, dropped and created anew: the named database itself
// is never touched. With MIGRATION_DATABASE_URL set, the owner makes and migrates it and the server
// connects as DATABASE_URL's role, as in production.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { openDb, type DbTarget } from "../lib/db";
import { deployMigrations } from "../lib/db/migrate";
import { seedDemoWithHistory } from "../prisma/seed/demo";
import { seedE2eFailedJobs, seedE2eFixtures, seedE2ePayments, seedE2eTraceRuns } from "../prisma/seed/e2e";
import { seedE2eEvalRun } from "../prisma/seed/e2e-eval";
import { seedE2eEvaluations } from "../prisma/seed/e2e-evaluation";
import { adminQuery, testDatabaseBase, withDatabase } from "../testing/postgres";
import { E2E_DEFAULT_PORT, EXIT_WITH_PARENT, e2eBasePort, e2eDataDir } from "../testing/e2e-data-dir";
import { startFakeStripe } from "../testing/fake-stripe";
import { DEFAULT_OIDC_ROLE_MAP, startOidcProvider } from "../testing/oidc-provider";

// Fixed for the browser suite, which signs intake requests and routes itself (e2e/fixtures.ts).
const E2E_SECRETS = {
  AUTH_SECRET: "e2e-only-auth-secret-0123456789abcdef01234",
  INTAKE_SECRET: "e2e-only-intake-secret-0123456789abcdef012",
  INTAKE_BUNDLE_KEY: "e2e-only-bundle-key-0123456789abcdef012345",
};

async function main() {
  const { values } = parseArgs({ options: { port: { type: "string", default: E2E_DEFAULT_PORT } } });
  // Another port is another server beside this one (a second checkout's suite): its own data directory.
  const dataDir = resolve(e2eDataDir(values.port));
  rmSync(dataDir, { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: process.env.E2E_DIST_DIR || ".next-test",
    DATA_DIR: dataDir,
    ...E2E_SECRETS,
    // The notification test's receiver listens on this machine, which a webhook may reach only by name.
    NOTIFY_WEBHOOK_ALLOWED_HOSTS: "localhost",
    // The evaluations a lead starts from /evals here grade the small datasets of e2e/fixtures/evals.
    EVAL_DATASET_DIR: "e2e/fixtures/evals",
  };
  let target: DbTarget;
  if (process.env.DATABASE_URL) {
    // The first shard's database is <database>_e2e; another shard's, <database>_e2e_<its port>.
    const shardSuffix = Number(values.port) === e2eBasePort() ? "" : `_${values.port}`;
    const name = `${testDatabaseBase(process.env.DATABASE_URL)}_e2e${shardSuffix}`;
    await adminQuery(process.env.DATABASE_URL, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await adminQuery(process.env.DATABASE_URL, `CREATE DATABASE "${name}"`);
    env.DATABASE_URL = withDatabase(process.env.DATABASE_URL, name);
    target = { kind: "postgres", url: env.DATABASE_URL };
  } else {
    env.PGLITE_DATA_DIR = resolve(dataDir, "pglite");
    target = { kind: "pglite", dir: env.PGLITE_DATA_DIR };
  }
  Object.assign(process.env, env);
  console.log(`e2e: migrating ${target.kind} database…`);
  await deployMigrations(target, { warn: (line) => console.log(`e2e: ${line}`) });
  const handle = openDb(target);
  console.log(`e2e: seeded ${await seedDemoWithHistory(handle.client)}, and ${await seedE2eFixtures(handle.client)} scenario tickets`);
  console.log(`e2e: ${await seedE2eTraceRuns(handle.client)} simulated runs on the trace scenario's ticket`);
  console.log(`e2e: graded the fixture eval run ${await seedE2eEvalRun(handle.client)}`);
  console.log(`e2e: ${await seedE2eFailedJobs(handle.client)} failed jobs for the jobs page`);
  console.log(`e2e: ${await seedE2eEvaluations(handle.client)} policy versions in review with an evaluation's regressions`);
  const fake = await startFakeStripeFor(handle.client, Number(values.port));
  Object.assign(env, fake.env);
  console.log(`e2e: the fake Stripe on port ${fake.port}, ${fake.payments} orders paid there`);
  await handle.close();
  const oidc = await startOidcFor(Number(values.port));
  Object.assign(env, oidc);
  console.log(`e2e: the local OpenID Connect provider at ${oidc.OIDC_ISSUER}`);
  // The server stops itself when this process is gone, however it went (testing/exit-with-parent.cjs).
  const child = spawn(
    process.execPath,
    ["--require", resolve(EXIT_WITH_PARENT), resolve("node_modules/next/dist/bin/next"), "start", "-p", values.port!, "-H", "127.0.0.1"],
    {
      stdio: "inherit",
      env,
    },
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code) => process.exit(code ?? 0));
}

/**
 * A real OpenID Connect provider (testing/oidc-provider.ts) two ports after the app's, its people the
 * demo accounts', and the app configured to sign in through it with the suite's groups-to-roles map.
 */
async function startOidcFor(appPort: number) {
  const provider = await startOidcProvider({ port: appPort + 2, redirectUris: [`http://127.0.0.1:${appPort}/api/auth/callback/oidc`] });
  return {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_NAME: "the local provider",
    OIDC_ROLE_MAP: DEFAULT_OIDC_ROLE_MAP,
    // The address the browser uses: next start hands route handlers a URL on "localhost", and the
    // redirect URI the code is exchanged with must be the one the browser was sent to the provider with.
    AUTH_URL: `http://127.0.0.1:${appPort}/api/auth`,
  };
}

/**
 * The fake Stripe beside the app (the port after the app's), its events posted to the app's webhook
 * route, and every seeded order paid there with a PaymentIntent of its amount: the suite's approved
 * refunds are executed at it, as an installation with `payments.provider = stripe` executes them.
 */
async function startFakeStripeFor(client: ReturnType<typeof openDb>["client"], appPort: number) {
  const fake = await startFakeStripe({ port: appPort + 1, webhookUrl: `http://127.0.0.1:${appPort}/api/payments/stripe` });
  const payments = await seedE2ePayments(client, (order) => fake.addPaymentIntent(order).id);
  const env = {
    PAYMENTS_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: fake.apiKey,
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_API_URL: `${fake.protocol}://${fake.host}:${fake.port}`,
  };
  return { port: fake.port, payments, env };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
