// How Node is started for a process that grades (npm run eval, an evaluation from /evals, a draft's
// evaluation before publishing, the bench's grading). Each embedded database is PostgreSQL compiled to
// WebAssembly, and V8 first runs it on its baseline compiler, then recompiles the hot parts with its
// optimising one on background threads. In a grading of seconds that recompilation costs more CPU
// than it gives back, on the same cores the graders need, and its code and its compiler's memory
// stay in the process: with the baseline compiler alone `npm run eval` peaks near 400 MB instead of
// 500 and the bench's grading runs about 7 % faster on two cores. Its garbage collector works on the
// grading threads rather than on helper threads of its own beside them: a few per cent more again
// (docs/performance.md, "Grading processes"). A long-lived process (the server, the worker) keeps the
// defaults.
export const GRADING_V8_FLAGS = ["--liftoff-only", "--single-threaded-gc"] as const;
