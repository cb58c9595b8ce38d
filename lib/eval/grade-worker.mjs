// A grading worker thread's entry (gradeEpisodes in grade-episodes.ts). Plain JavaScript, so that it
// starts whatever runs the parent: a parent under tsx hands its loader on to the worker and the
// TypeScript module imports as is; anywhere else (Vitest, plain Node) tsx's API loads it.
const entry = "./grade-worker.ts";
try {
  await import(entry);
} catch (error) {
  if (error?.code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
  const { tsImport } = await import("tsx/esm/api");
  await tsImport(entry, import.meta.url);
}
