// The token counter (gpt-tokenizer, o200k_base), loaded the first time a prompt is counted: its tables
// take about 70 MB and 180 ms to load, and a process that never calls a model – a server on the rule
// planner, a grading thread with no model episode – never needs them.
let loading: Promise<typeof import("gpt-tokenizer")> | undefined;

export function tokenizer(): Promise<typeof import("gpt-tokenizer")> {
  loading ??= import("gpt-tokenizer");
  return loading;
}
