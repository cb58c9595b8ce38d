// The episode format: one JSON object per line of a dataset (eval/episodes.jsonl). An episode is a
// ticket, a planner and the outcome the runtime must produce for it: status, reason, the exact
// action path, citations and the refunds written. The JSON Schema published in eval/ is generated
// from this zod schema (npm run eval:schema), so the two cannot drift.
import { z } from "zod";
import { ALLOWED_ACTIONS } from "../contracts/actions";
import { STOP_REASONS, STOP_STATUSES } from "../contracts/reason-codes";
import { PROPOSAL_DECISIONS } from "../contracts/proposal-decision";
import { EXECUTION_OUTCOMES } from "../contracts/reason-codes";

export const ORDER_PRESETS = ["tablet", "laptop", "flagged", "old", "missing", "none"] as const;

const ZTicketSpec = z.union([
  z.strictObject({
    /** A demo ticket (prisma/seed/demo.ts) by external id: its text, route and order are copied. */
    seeded: z.string().min(1),
  }),
  z.strictObject({
    subject: z.string().min(1),
    /** `{order}` is replaced by the episode's own order id. */
    body: z.string().min(1),
    /** The order the ticket names: a fresh copy of a demo order, an id that does not exist, or none. */
    order: z.enum(ORDER_PRESETS),
    /** Omitted: the built-in bundle classifies the text and signs its route. */
    route: z.enum(["guarded_agent", "human_review_now"]).optional(),
    bundleVersion: z.string().optional(),
    signature: z.enum(["valid", "missing", "forged"]).default("valid"),
    /** Who writes the ticket: the order's customer, or a stranger naming that customer's order. */
    from: z.enum(["customer", "stranger"]).default("customer"),
    /** The customer's follow-up messages, delivered after the ticket as the intake API delivers them
     * (lib/conversations/receive-follow-up.ts); `{order}` is replaced as in the body. */
    followUps: z.array(z.string().min(1)).optional(),
  }),
]);

const ZScripted = z.strictObject({
  /** Decisions replayed in order, exactly as a planner might emit them (anything JSON). */
  scripted: z.array(z.unknown()).min(1),
  /** Reported usage per decision, for token-budget cases. */
  usagePerStep: z.strictObject({ promptTokens: z.number().int().min(0), completionTokens: z.number().int().min(0) }).optional(),
  /** A delay before each decision, for time-budget cases. */
  delayMs: z.number().int().min(0).max(60_000).optional(),
});

export const ZEpisode = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lowercase letters, digits and dashes"),
  title: z.string().min(1),
  ticket: ZTicketSpec,
  /** "model": the configured model, or the local fake server answering like a well-behaved model when
   * none is configured. {model: {fake: [...]}}: the local fake server answers with these entries
   * (decisions, drafts, raw content, HTTP errors, delays – see lib/llm/fake-openai-server.ts),
   * then like a well-behaved model. */
  planner: z.union([z.literal("rule"), z.literal("model"), ZScripted, z.strictObject({ model: z.strictObject({ fake: z.array(z.unknown()).min(1) }) })]),
  mode: z.enum(["live", "simulate"]).default("live"),
  budgets: z.strictObject({ maxSteps: z.number().int().positive(), maxTokens: z.number().int().positive(), maxWallMs: z.number().int().positive(), toolTimeoutMs: z.number().int().positive() }).partial().optional(),
  /** Tools made to misbehave for this episode (the allowlist itself never changes). */
  faults: z.array(z.strictObject({ tool: z.enum(ALLOWED_ACTIONS), kind: z.enum(["hang", "error", "invalid_output"]) })).optional(),
  /** A person's decision after the run, and how many times the executor is then called. */
  approval: z
    .strictObject({
      as: z.enum(["REVIEWER", "SPECIALIST", "LEAD", "ADMIN"]),
      decision: z.enum(["approve", "reject"]),
      note: z.string().optional(),
      /** Total executor calls for the approved operation (the first comes from the approval itself). */
      executions: z.number().int().min(1).max(20).default(1),
      /** Decide after the request expired. */
      afterExpiry: z.boolean().default(false),
    })
    .optional(),
  expect: z.strictObject({
    status: z.enum(STOP_STATUSES),
    reason: z.enum(STOP_REASONS),
    path: z.array(z.string()),
    citations: z.array(z.string()),
    /** Ledger rows for the episode's order once everything ran. */
    refunds: z.number().int().min(0),
    proposal: z.strictObject({ decision: z.enum(PROPOSAL_DECISIONS), requiredRole: z.enum(["REVIEWER", "SPECIALIST"]).nullable().optional() }).nullable().optional(),
    /** The decision's result: "decided", or the refusal code (role_insufficient, expired, …). */
    approval: z.string().optional(),
    executions: z.array(z.enum(EXECUTION_OUTCOMES)).optional(),
  }),
});
export type TEpisode = z.infer<typeof ZEpisode>;
export type TEpisodeInput = z.input<typeof ZEpisode>;

export interface TDataset {
  version: string;
  hash: string;
  episodes: TEpisode[];
}

export class DatasetError extends Error {}

/**
 * Parses a JSON Lines file of labelled items: a header line `{"<headerKey>": "…"}` naming its
 * version, then one item per non-empty line, each checked by `schema`, ids unique. Errors name the
 * line and the field. The episode dataset and the retrieval questions are both read with it.
 */
export function parseJsonLines<T extends { id: string }>(text: string, options: { headerKey: string; schema: z.ZodType<T>; noun: string }): { version: string; items: T[] } {
  let version: string | null = null;
  const items: T[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new DatasetError(`line ${i + 1}: not JSON (${(error as Error).message})`);
    }
    if (json && typeof json === "object" && options.headerKey in json) {
      version = String((json as Record<string, unknown>)[options.headerKey]);
      return;
    }
    const parsed = options.schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new DatasetError(`line ${i + 1}: ${issue.path.join(".") || `(${options.noun})`}: ${issue.message}`);
    }
    if (seen.has(parsed.data.id)) throw new DatasetError(`line ${i + 1}: ${options.noun} id ${parsed.data.id} appears twice`);
    seen.add(parsed.data.id);
    items.push(parsed.data);
  });
  if (!version) throw new DatasetError(`the first line must be a header: {"${options.headerKey}": "…"}`);
  return { version, items };
}

/** Parses the episode dataset (a header `{"datasetVersion": "…"}`, then one episode per line). */
export function parseDataset(text: string, hash: string): TDataset {
  const { version, items } = parseJsonLines(text, { headerKey: "datasetVersion", schema: ZEpisode, noun: "episode" });
  return { version, hash, episodes: items };
}
