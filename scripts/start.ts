// npm start: everything a fresh checkout needs, then the server.
//   1. validate the settings (one line naming a bad variable, then exit)
//   2. apply pending migrations; seed the demo data that is missing (embedded database by default)
//   3. build the app when the build is missing or older than the sources
//   4. serve it on PORT (3000)
// With --prepare (as `npm start` runs it) it stops after 3 and exits, and the shell replaces itself
// with the server (scripts/serve.mjs): this launcher, which opened the database to migrate and seed
// it, holds no memory while the app serves. `npm run dev` does 1–2 and runs the development server.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { configuredTarget, openDb } from "../lib/db";
import { protectDataDir } from "../lib/db/data-dir";
import { deployMigrations } from "../lib/db/migrate";
import { authSecret, describeEnvError, env, intakeBundleKey, intakeSecret } from "../lib/env";
import { agentManifest } from "../lib/contracts/manifest";
import { seedDemoWithHistory } from "../prisma/seed/demo";

const dev = process.argv.includes("--dev");
const prepareOnly = process.argv.includes("--prepare");
const NEXT = resolve("node_modules/next/dist/bin/next");
const FINGERPRINT = resolve(".next/countersign-source-fingerprint");
const SOURCES = [
  "app",
  "components",
  "lib",
  "public",
  "contracts",
  "generated",
  "proxy.ts",
  "instrumentation.ts",
  "instrumentation-node.ts",
  "next.config.mjs",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
];

function step(text: string) {
  console.log(`▸ ${text}`);
}

/** Paths, sizes and modification times of everything the build reads. */
function sourceFingerprint(): string {
  const hash = createHash("sha256");
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path).sort()) visit(join(path, entry));
    } else {
      hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  };
  SOURCES.forEach(visit);
  return hash.digest("hex");
}

function run(args: string[], extraEnv: Record<string, string>): number {
  const r = spawnSync(process.execPath, args, { stdio: "inherit", env: { ...process.env, ...extraEnv } });
  return r.status ?? 1;
}

async function main(): Promise<number> {
  const e = env();
  // Before the first secret is written: the data directory and everything in it private to its owner.
  if (e.databaseKind === "pglite") protectDataDir(e.pgliteDir, e.DATA_DIR);
  agentManifest();
  const secret = authSecret((line) => step(line));
  // Made now rather than on first use, so the helpdesk (and the README's curl example) can read them
  // before the first request.
  intakeBundleKey((line) => step(line));
  intakeSecret((line) => step(line));
  const childEnv = { NEXT_TELEMETRY_DISABLED: "1", AUTH_SECRET: secret };

  if (!existsSync("generated/prisma/client.ts")) {
    step("Generating the database client…");
    if (run(["node_modules/tsx/dist/cli.mjs", "scripts/prisma-generate.ts"], childEnv) !== 0) return 1;
  }

  const target = configuredTarget();
  step(target.kind === "pglite" ? `Embedded database in ${e.pgliteDir}: applying migrations…` : "PostgreSQL: applying migrations…");
  // Says once, here, when the app connects as the owner and its history is not protected.
  const applied = await deployMigrations(target, { warn: (line) => console.warn(`▸ ${line}`) });
  step(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(", ")}` : "Migrations are current.");

  if (e.demoSeed) {
    const handle = openDb(target);
    try {
      step(`Demo data: created ${await seedDemoWithHistory(handle.client)}.`);
    } finally {
      await handle.close();
    }
  }

  const hostArgs = e.HOSTNAME ? ["-H", e.HOSTNAME] : [];
  if (dev) return serve([NEXT, "dev", "-p", String(e.PORT), ...hostArgs], childEnv);

  const fingerprint = sourceFingerprint();
  const built = existsSync(".next/BUILD_ID") && existsSync(FINGERPRINT) && readFileSync(FINGERPRINT, "utf8") === fingerprint;
  if (!built) {
    step("Building the app (about a minute the first time)…");
    if (run([NEXT, "build"], childEnv) !== 0) return 1;
    writeFileSync(FINGERPRINT, fingerprint);
  } else {
    step("The build is current.");
  }
  step(`Serving Countersign on http://${e.HOSTNAME ?? "localhost"}:${e.PORT}${e.demoSeed ? " (demo accounts: see README)" : ""}`);
  if (prepareOnly) return 0;
  return serve([NEXT, "start", "-p", String(e.PORT), ...hostArgs], childEnv);
}

function serve(args: string[], extraEnv: Record<string, string>): Promise<number> {
  const child = spawn(process.execPath, args, { stdio: "inherit", env: { ...process.env, ...extraEnv } });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  return new Promise((done) => child.on("exit", (code, signal) => done(code ?? (signal ? 0 : 1))));
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(describeEnvError(error) ?? (error instanceof Error ? error.message : error));
    process.exit(1);
  },
);
