// A local, scriptable stand-in for an OpenAI-compatible chat-completions server, for tests and eval
// episodes (a hosted model cannot run here). It listens on loopback only and answers each request
// with the next scripted entry: a decision, a draft, raw content (malformed JSON), an HTTP error, or a
// delay. With no script left it answers "auto": the rule planner's decision for the state it was
// sent, and the rule drafter's reply – a well-behaved model. Its usage is a fixed 180 + 24 tokens per
// answer unless the script says otherwise, or, started with `countUsage`, counted as a server counts
// it: the prompt's tokens (messages and schema, with the chat template's few tokens per message) and
// the answer's, cut at the request's max_tokens as a server cuts it (finish_reason "length").
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { rulePlanner } from "../agent/rule-planner";
import { draftReply } from "../agent/rule-drafter";
import type { TAgentState } from "../agent/state";
import { tokenizer } from "./tokenizer";

export type TFakeEntry =
  | { decision: unknown; usage?: TUsage }
  | { draft: string; usage?: TUsage }
  | { content: string; usage?: TUsage }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { delayMs: number; then?: TFakeEntry }
  | "auto";

/** OpenAI's usage; prompt_tokens_details.cached_tokens: the prompt tokens served from its cache. */
type TUsage = { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number } };

export interface TRecordedRequest {
  kind: "decision" | "draft" | "other";
  body: { model?: string; messages?: { role: string; content: string }[]; response_format?: unknown; max_tokens?: number };
  /** The usage the answer reported (none for an HTTP error). */
  usage?: TUsage;
  /** When it arrived (Date.now()) and the HTTP status it was answered with. */
  at: number;
  status?: number;
}

export interface TFakeOpenAI {
  /** Base URL to give the client, ending in /v1. */
  url: string;
  requests: TRecordedRequest[];
  /** Requests being answered now, and the most there ever were at once. */
  inFlight(): number;
  maxInFlight(): number;
  /** Appends entries to the script. */
  push(...entries: TFakeEntry[]): void;
  /** Drops what is left of the script. */
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_USAGE: TUsage = { prompt_tokens: 180, completion_tokens: 24 };

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function firstUser(body: TRecordedRequest["body"]): string {
  return (body.messages ?? []).find((m) => m.role === "user")?.content ?? "";
}

/** Rebuilds enough of the run's state from what the planner was shown to answer as the rule planner would. */
function stateFromView(text: string): TAgentState {
  const view = JSON.parse(text.replace(/^STATE_JSON: /, ""));
  const evidence =
    typeof view.evidence === "string"
      ? null
      : view.evidence.status === "grounded"
        ? { status: "grounded" as const, question: "", citations: view.evidence.citations, passages: view.evidence.passages }
        : { status: "abstain" as const, question: "", citations: [] as [], passages: [] as [], reason: "no_approved_evidence" as const };
  const order =
    typeof view.order === "string"
      ? null
      : view.order.found
        ? { found: true as const, order: { ...view.order } }
        : { found: false as const, orderId: view.order.order_id };
  return {
    ticket: {
      id: "",
      number: 0,
      subject: view.ticket.subject,
      body: view.ticket.body,
      customerEmail: "",
      orderRef: view.ticket.order_named,
    },
    evidence,
    order,
    draft: view.draft === "written" ? { text: "", citations: [] } : null,
    proposal:
      view.proposal === "none"
        ? null
        : {
            id: null,
            orderId: "",
            amountCents: view.proposal.amount_cents,
            currency: "USD",
            reason: "",
            decision: view.proposal.decision,
            reasons: [],
            requiredRole: null,
            policyVersion: "",
          },
    history: view.steps_taken ?? [],
  } as TAgentState;
}

function draftFromRequest(text: string): string {
  const { ticket, passages, order } = JSON.parse(text.replace(/^DRAFT_JSON: /, ""));
  const state = {
    ticket: { id: "", number: 0, subject: ticket.subject, body: ticket.body, customerEmail: "", orderRef: order.id },
    evidence: {
      status: "grounded",
      question: "",
      citations: [...new Set(passages.map((p: { citation: string }) => p.citation))],
      // The request shows a passage's citation and text; the rule drafter also reads its language and audience.
      passages: passages.map((p: { citation: string; text: string }) => ({ locale: "en", audience: "customer", ...p })),
    },
    order: { found: true, order },
    draft: null,
    proposal: null,
    history: [],
  } as unknown as TAgentState;
  return draftReply(state).text;
}

/** The usage a server reports for a request and its answer, the answer cut at max_tokens. */
async function countedUsage(body: TRecordedRequest["body"], content: string): Promise<{ usage: TUsage; content: string; cut: boolean }> {
  const { countTokens, decode, encode } = await tokenizer();
  const schema = (body.response_format as { json_schema?: { schema?: unknown } } | undefined)?.json_schema?.schema;
  const messages = body.messages ?? [];
  const prompt = messages.reduce((n, m) => n + countTokens(m.content) + 4, 3 + (schema ? countTokens(JSON.stringify(schema)) : 0));
  const tokens = encode(content);
  const cut = body.max_tokens !== undefined && tokens.length > body.max_tokens;
  const answer = cut ? decode(tokens.slice(0, body.max_tokens)) : content;
  return { usage: { prompt_tokens: prompt, completion_tokens: cut ? body.max_tokens! : tokens.length }, content: answer, cut };
}

export interface TFakeOptions {
  countUsage?: boolean;
  /** How long each answer that is not an HTTP error takes, as a hosted model's would (scripted delays add to it). */
  delayMs?: number;
}

type TAnswer = { status: number; json: unknown; headers?: Record<string, string> };

/** The answer to one request from its script entry; `n` numbers the completion's id. */
async function answer(
  entry: TFakeEntry,
  kind: TRecordedRequest["kind"],
  body: TRecordedRequest["body"],
  options: TFakeOptions,
  n: number,
): Promise<TAnswer> {
  if (entry !== "auto" && "delayMs" in entry) {
    await new Promise((r) => setTimeout(r, entry.delayMs));
    return answer(entry.then ?? "auto", kind, body, options, n);
  }
  if (entry !== "auto" && "status" in entry)
    return {
      status: entry.status,
      json: entry.body ?? { error: { message: `scripted HTTP ${entry.status}`, type: "server_error" } },
      headers: entry.headers,
    };
  if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
  let content: string;
  let usage = DEFAULT_USAGE;
  if (entry === "auto") {
    content =
      kind === "draft"
        ? JSON.stringify({ reply: draftFromRequest(firstUser(body)) })
        : JSON.stringify((await rulePlanner.decide(stateFromView(firstUser(body)), new AbortController().signal)).decision);
  } else {
    usage = entry.usage ?? DEFAULT_USAGE;
    content =
      "decision" in entry ? JSON.stringify(entry.decision) : "draft" in entry ? JSON.stringify({ reply: entry.draft }) : entry.content;
  }
  let cut = false;
  if (options.countUsage && (entry === "auto" || !entry.usage)) ({ usage, content, cut } = await countedUsage(body, content));
  return {
    status: 200,
    json: {
      id: `chatcmpl-fake-${n}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? "fake-model",
      choices: [{ index: 0, finish_reason: cut ? "length" : "stop", message: { role: "assistant", content } }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

export async function startFakeOpenAI(script: TFakeEntry[] = [], options: TFakeOptions = {}): Promise<TFakeOpenAI> {
  const queue = [...script];
  const requests: TRecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const server: Server = createServer(async (req, res) => {
    try {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const body = JSON.parse(await readBody(req)) as TRecordedRequest["body"];
      const text = firstUser(body);
      const kind: TRecordedRequest["kind"] = text.startsWith("STATE_JSON:")
        ? "decision"
        : text.startsWith("DRAFT_JSON:")
          ? "draft"
          : "other";
      const record: TRecordedRequest = { kind, body, at: Date.now() };
      requests.push(record);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      let answered: TAnswer;
      try {
        answered = await answer(queue.length ? queue.shift()! : "auto", kind, body, options, requests.length);
      } finally {
        inFlight--;
      }
      const { status, json, headers } = answered;
      record.status = status;
      const usage = (json as { usage?: TUsage & { total_tokens: number } }).usage;
      if (usage) record.usage = { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens };
      if (!res.destroyed) res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(json));
    } catch (error) {
      if (!res.destroyed)
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: String(error) } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    push: (...entries) => void queue.push(...entries),
    reset: () => void queue.splice(0),
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
