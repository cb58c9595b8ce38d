// A chat-completions provider over any OpenAI-compatible endpoint, through the official client.
// Output is schema-constrained (response_format json_schema); usage and latency are measured from the
// response, never estimated.
import OpenAI from "openai";
import { env } from "../env";
import { configuredModelLimiter } from "./model-limiter";

export interface TLlmConfig {
  baseURL: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

export type TLlmAvailability = { available: true; config: TLlmConfig } | { available: false; reason: string };

/** The configured model, or why there is none. */
export function llmAvailability(): TLlmAvailability {
  const e = env();
  if (!e.LLM_BASE_URL)
    return { available: false, reason: "No model is configured: set LLM_BASE_URL (and LLM_MODEL) to an OpenAI-compatible endpoint." };
  if (!e.LLM_MODEL) return { available: false, reason: "LLM_BASE_URL is set but LLM_MODEL is not: name the model to use." };
  // Local servers (Ollama, llama.cpp) ignore the key; the client insists on one.
  return {
    available: true,
    config: { baseURL: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY ?? "not-needed", model: e.LLM_MODEL, timeoutMs: e.LLM_TIMEOUT_MS },
  };
}

export interface TChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface TCompletion {
  content: string;
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, those the provider served from its cache (OpenAI's
   * usage.prompt_tokens_details.cached_tokens; 0 when it reports none). */
  cachedTokens: number;
  model: string;
  latencyMs: number;
}

export class LlmError extends Error {
  constructor(
    message: string,
    readonly kind: "timeout" | "http" | "empty" | "network" | "rate_limited",
    readonly status?: number,
    /** A 429's Retry-After, in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "LlmError";
  }
}

const clients = new Map<string, OpenAI>();
function clientFor(config: TLlmConfig): OpenAI {
  const key = `${config.baseURL}\n${config.apiKey}\n${config.timeoutMs}`;
  let client = clients.get(key);
  if (!client) {
    // No retries inside the client: the runtime's budgets decide how much waiting a run may do.
    client = new OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey, timeout: config.timeoutMs, maxRetries: 0 });
    clients.set(key, client);
  }
  return client;
}

/** 429s one call waits out before it gives up (each after the endpoint's Retry-After). */
export const RATE_LIMIT_RETRIES = 5;
/** The wait after a 429 that names none. */
const DEFAULT_RETRY_AFTER_MS = 1_000;

/** A 429's Retry-After (retry-after-ms, or retry-after in seconds or as a date), in milliseconds. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number {
  const ms = Number(headers?.get("retry-after-ms"));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const value = headers?.get("retry-after");
  if (value) {
    const seconds = Number(value);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.max(1, seconds * 1000);
    const date = Date.parse(value);
    if (Number.isFinite(date)) return Math.max(1, date - now);
  }
  return DEFAULT_RETRY_AFTER_MS;
}

type TCompleteInput = {
  config: TLlmConfig;
  messages: TChatMessage[];
  schemaName: string;
  schema: Record<string, unknown>;
  /** The longest answer allowed (max_tokens): what the run's token budget leaves (token-budget.ts). */
  maxTokens?: number;
  signal?: AbortSignal;
};

/**
 * One completion at the endpoint's pace: each attempt waits for its turn under the shared limits; a
 * 429 holds every process off for its Retry-After and the call is made again (up to
 * RATE_LIMIT_RETRIES times) – a slower answer, not a failed one. The run's signal bounds the waiting.
 */
export async function completeJson(input: TCompleteInput): Promise<TCompletion> {
  const limiter = configuredModelLimiter(input.config);
  for (let retries = 0; ; retries++) {
    await limiter.admit(input.signal).catch((reason) => {
      throw new LlmError(`the request was aborted while waiting for the model's rate limit (${String(reason)})`, "timeout");
    });
    try {
      const completion = await completeOnce(input);
      await limiter.spend(completion.promptTokens + completion.completionTokens);
      return completion;
    } catch (error) {
      if (!(error instanceof LlmError) || error.kind !== "rate_limited" || retries >= RATE_LIMIT_RETRIES) throw error;
      await limiter.holdOff(error.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS);
    }
  }
}

async function completeOnce(input: TCompleteInput): Promise<TCompletion> {
  const started = performance.now();
  try {
    const response = await clientFor(input.config).chat.completions.create(
      {
        model: input.config.model,
        messages: input.messages,
        temperature: 0,
        ...(input.maxTokens === undefined ? {} : { max_tokens: input.maxTokens }),
        response_format: { type: "json_schema", json_schema: { name: input.schemaName, schema: input.schema, strict: true } },
      },
      { signal: input.signal },
    );
    const content = response.choices[0]?.message?.content;
    if (typeof content !== "string") throw new LlmError("the model returned no message content", "empty");
    return {
      content,
      promptTokens: response.usage?.prompt_tokens ?? 0,
      completionTokens: response.usage?.completion_tokens ?? 0,
      cachedTokens: response.usage?.prompt_tokens_details?.cached_tokens ?? 0,
      model: response.model || input.config.model,
      latencyMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    if (error instanceof LlmError) throw error;
    if (error instanceof OpenAI.APIConnectionTimeoutError)
      throw new LlmError(`the model did not answer within ${input.config.timeoutMs} ms`, "timeout");
    if (error instanceof OpenAI.APIError && error.status === 429)
      throw new LlmError("the model endpoint answered HTTP 429 (rate limited)", "rate_limited", 429, retryAfterMs(error.headers));
    if (error instanceof OpenAI.APIError && error.status)
      throw new LlmError(`the model endpoint answered HTTP ${error.status}`, "http", error.status);
    if (error instanceof OpenAI.APIUserAbortError) throw new LlmError("the request was aborted (time budget)", "timeout");
    throw new LlmError(`the model endpoint could not be reached: ${(error as Error).message}`, "network");
  }
}
