// Test files run in parallel, one per worker: each worker keeps what the code under test writes to
// DATA_DIR (generated keys and secrets, the checkpoint file) in a directory of its own, so two files
// never race to create a key or read each other's lines. A file that sets DATA_DIR itself still wins.
import { basename, join } from "node:path";

// In a worker that runs several files in one module graph (the unit files), this runs once per file.
const base = process.env.DATA_DIR;
const worker = process.env.VITEST_POOL_ID;
if (base && worker && basename(base) !== `worker-${worker}`) process.env.DATA_DIR = join(base, `worker-${worker}`);
