// What `npm run eval` adds to the grading: the planner and model a lead chose (from the app or on
// the command line), and storing its receipt through the running server when that server holds the
// embedded database (the CLI may not open it: two processes on one PGlite directory corrupt it).
import type { TDataset } from "./episode";
import type { TLlmAvailability } from "../llm/provider";
import { createHash } from "node:crypto";
import { appBaseUrl, evalSecret } from "../env";
import { constantTimeEqual, hmacSha256Hex } from "../contracts/signatures";
import { MAX_SKEW_SECONDS, REQUEST_SIGNATURE_HEADER, TIMESTAMP_HEADER } from "../intake/request-signature";
import type { TReceipt } from "./receipt";
import type { TReleaseDecision } from "./decide-release";

export type TPlannerChoice = "as-written" | "rule" | "model";

export function isPlannerChoice(value: string): value is TPlannerChoice {
  return value === "as-written" || value === "rule" || value === "model";
}

/**
 * The dataset with every episode written for the rule or the model planner played on `planner`
 * instead; scripted episodes (their decisions written out, or a fake model's answers) stay as they are.
 */
export function onPlanner(dataset: TDataset, planner: TPlannerChoice | string | undefined): TDataset {
  if (planner !== "rule" && planner !== "model") return dataset;
  return { ...dataset, episodes: dataset.episodes.map((e) => (e.planner === "rule" || e.planner === "model" ? { ...e, planner } : e)) };
}

/** The configured model endpoint, calling `model` instead of LLM_MODEL when one is named. */
export function withModel(llm: TLlmAvailability, model: string | undefined): TLlmAvailability {
  if (!model || !llm.available) return llm;
  return { available: true, config: { ...llm.config, model } };
}

/** The route the server stores a CLI's receipt through. */
export const RECEIPTS_ROUTE = "/api/evals/receipts";

/** The body's digest: what a stored receipt is known by, so a replayed request stores nothing twice. */
export const bodyDigest = (body: string) => `sha256:${createHash("sha256").update(body).digest("hex")}`;

/** The signature of a receipt's body at `timestamp` (unix seconds), with EVAL_SECRET. */
export function signReceipt(secret: string, timestamp: number, body: string): string {
  return `sha256=${hmacSha256Hex(secret, `${timestamp}\nPOST\n${RECEIPTS_ROUTE}\n${bodyDigest(body)}`)}`;
}

/** A receipt request signed with `secret`, within MAX_SKEW_SECONDS of now. */
export function verifyReceiptSignature(input: { secret: string; timestamp: string | null; signature: string | null; body: string; now?: Date }): boolean {
  if (!input.timestamp || !input.signature || !/^\d{1,12}$/.test(input.timestamp)) return false;
  const timestamp = Number(input.timestamp);
  if (Math.abs((input.now ?? new Date()).getTime() / 1000 - timestamp) > MAX_SKEW_SECONDS) return false;
  return constantTimeEqual(input.signature.trim(), signReceipt(input.secret, timestamp, input.body));
}

/** Posts the receipt to the running server (APP_URL, or this machine's PORT), signed; its eval run's id. */
export async function storeThroughServer(input: { receipt: TReceipt; decision: TReleaseDecision; costUsd?: number | null }): Promise<{ id: string }> {
  const body = JSON.stringify({ receipt: input.receipt, costUsd: input.costUsd ?? null });
  const timestamp = Math.floor(Date.now() / 1000);
  const response = await fetch(`${appBaseUrl()}${RECEIPTS_ROUTE}`, {
    method: "POST",
    headers: { "content-type": "application/json", [TIMESTAMP_HEADER]: String(timestamp), [REQUEST_SIGNATURE_HEADER]: signReceipt(evalSecret(), timestamp, body) },
    body,
  }).catch((error: unknown) => {
    throw new Error(`The server at ${appBaseUrl()} did not answer (${error instanceof Error ? error.message : String(error)}): set APP_URL or PORT to the running server's.`);
  });
  const answer = (await response.json().catch(() => null)) as { id?: string; error?: { message?: string } } | null;
  if (!response.ok || !answer?.id) throw new Error(`The server refused the receipt (HTTP ${response.status}): ${answer?.error?.message ?? "no reason given"}.`);
  return { id: answer.id };
}
