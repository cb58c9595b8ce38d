// `prisma generate` on a machine that cannot download Prisma's native schema engine.
// Prisma 7's client needs no binary (its query compiler is WASM), but the CLI insists on locating a
// schema engine before it starts. generate never runs it, so a stand-in that refuses is enough.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const stub = resolve("node_modules/.cache/countersign/schema-engine-stub");
mkdirSync(join(stub, ".."), { recursive: true });
writeFileSync(stub, "#!/bin/sh\necho 'schema engine stand-in: use npm run db:* for migrations' >&2\nexit 1\n");
chmodSync(stub, 0o755);

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? stub,
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
};
const r = spawnSync(process.execPath, [resolve("node_modules/prisma/build/index.js"), "generate"], { stdio: "inherit", env });
process.exit(r.status ?? 1);
