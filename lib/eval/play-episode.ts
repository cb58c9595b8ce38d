// An episode played through the real runtime: written into the database (materializeEpisode), run by
// runAgent with its planner, faults and budgets, its approval decided by a person of the stated role
// and executed as the worker would, and its outcome read back – what the grader compares with the
// expected one (episode-diff.ts).
import { driverRows } from "../db";
import { scriptedPlanner, type TPlanner, type TPlannerOutput } from "../agent/planner";
import { rulePlanner } from "../agent/rule-planner";
import { runCost } from "../agent/run-cost";
import { runAgent } from "../agent/run-agent";
import type { TToolSet } from "../agent/tools";
import { plannerSetup } from "../llm/choose-planner";
import type { TLlmConfig } from "../llm/provider";
import { startFakeOpenAI, type TFakeEntry, type TFakeOpenAI } from "../llm/fake-openai-server";
import { decideApproval, DECISION_REFUSALS } from "../approvals/decide-approval";
import { isAppError } from "../contracts/app-error";
import { executeApprovedRefund } from "../ledger/execute-approved-refund";
import { settleApprovedRefund } from "../approvals/settle-refund";
import { userOfRole, type TGradingDb } from "./episode-images";
import { materializeEpisode, type TEpisodeWorld } from "./materialize-episode";
import type { TEpisode } from "./episode";

/** The model id model episodes report when they ran against the local fake server. */
export const FAKE_MODEL = "fake-model (local OpenAI-compatible fake)";

export interface TActualOutcome {
  status: string;
  reason: string;
  path: string[];
  citations: string[];
  refunds: number;
  proposal: { decision: string; requiredRole: string | null } | null;
  approval?: string;
  executions?: string[];
}

export function usesModel(episode: TEpisode): boolean {
  return episode.planner === "model" || (typeof episode.planner === "object" && "model" in episode.planner);
}

/** The model endpoints a grader's episodes run against: the configured one, and the local fake server when an episode needs it. */
export interface TModelEndpoints {
  configured?: TLlmConfig;
  fake: TFakeOpenAI | null;
}

/** The endpoints for these episodes: the fake server is started only when one of them needs it. The caller closes it. */
export async function modelEndpoints(episodes: readonly TEpisode[], llm: TLlmConfig | undefined): Promise<TModelEndpoints> {
  const needsFake = episodes.some((e) => usesModel(e) && (e.planner !== "model" || !llm));
  return { configured: llm, fake: needsFake ? await startFakeOpenAI() : null };
}

/** `{order}` anywhere in a scripted decision becomes the episode's order id. */
function withOrder(value: unknown, orderId: string): unknown {
  if (typeof value === "string") return value.replaceAll("{order}", orderId);
  if (Array.isArray(value)) return value.map((v) => withOrder(v, orderId));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withOrder(v, orderId)]));
  return value;
}

/** What a run is played with. `local`: nothing in it waits on anything but this machine (the rule or a
 * scripted planner without a delay, the local fake model answering at once). */
type TEpisodeSetup = { planner: TPlanner; tools: Partial<TToolSet>; model: string | null; local: boolean };

/**
 * Time limits with room, for a local run whose episode sets none: on a busy machine (two test files
 * and the graders' threads on two cores) a tool's time is the machine's load, not the agent's, and
 * the manifest's 2 s for a tool turned a prompt draft into tool_timeout (and, at 12 s, a CI run at
 * full load once turned the fake model's draft into tool_error). An episode about time says
 * its own limits (tool-timeout, the latency budget), and a run on a configured model keeps the
 * manifest's, which is what its speed is graded against.
 */
const LOCAL_TIME_ROOM = { toolTimeoutMs: 30_000, maxWallMs: 120_000 } as const;

export function runBudgets(episode: TEpisode, local: boolean): TEpisode["budgets"] {
  if (!local) return episode.budgets;
  const setsTime = episode.budgets?.toolTimeoutMs !== undefined || episode.budgets?.maxWallMs !== undefined;
  return setsTime ? episode.budgets : { ...LOCAL_TIME_ROOM, ...episode.budgets };
}

function plannerFor(episode: TEpisode, world: TEpisodeWorld, models: TModelEndpoints): TEpisodeSetup {
  if (episode.planner === "rule") return { planner: rulePlanner, tools: {}, model: null, local: true };
  if (episode.planner === "model" || "model" in episode.planner) {
    const scripted = episode.planner !== "model";
    const fake = models.fake!;
    fake.reset();
    const entries = scripted ? (withOrder((episode.planner as { model: { fake: unknown[] } }).model.fake, world.orderId ?? "") as TFakeEntry[]) : [];
    fake.push(...entries);
    // The fake answers at once unless an entry says to wait: only an episode about a slow model gets
    // the short client timeout it is written against. The rest get room, so a busy machine (a test
    // run on two cores) cannot turn a prompt local answer into a planner_error.
    const slow = entries.some((entry) => entry !== "auto" && "delayMs" in entry);
    const configured = !scripted && models.configured;
    const config = configured || { baseURL: fake.url, apiKey: "fake", model: FAKE_MODEL, timeoutMs: slow ? 2_000 : LOCAL_TIME_ROOM.toolTimeoutMs };
    return { ...plannerSetup("model", config), local: !configured && !slow };
  }
  const { scripted, usagePerStep, delayMs } = episode.planner;
  const inner = scriptedPlanner(scripted.map((decision): TPlannerOutput => ({ decision: withOrder(decision, world.orderId ?? ""), usage: usagePerStep })), { wrapped: true });
  if (!delayMs) return { planner: inner, tools: {}, model: null, local: true };
  return {
    planner: { id: "scripted", decide: async (state, signal) => (await new Promise((r) => setTimeout(r, delayMs)), inner.decide(state, signal)) },
    tools: {},
    model: null,
    local: false,
  };
}

function faultyTools(episode: TEpisode): Partial<TToolSet> {
  const tools: Partial<TToolSet> = {};
  for (const fault of episode.faults ?? []) {
    tools[fault.tool] =
      fault.kind === "hang"
        ? () => new Promise(() => {})
        : fault.kind === "error"
          ? async () => {
              throw new Error(`injected ${fault.tool} failure`);
            }
          : async () => ({ injected: "not the declared observation" });
  }
  return tools;
}

/**
 * The episode's approval decided by the world's user of the stated role, and, when the decision
 * enqueues the refund, executed as its job would (the grading database runs no worker), then replayed
 * `executions` − 1 times. A refused decision is an outcome to grade, by its code; anything else, and
 * anything the execution throws, fails the episode.
 */
async function decideEpisodeApproval(g: TGradingDb, approval: NonNullable<TEpisode["approval"]>, approvalId: string | null | undefined): Promise<Pick<TActualOutcome, "approval" | "executions">> {
  if (!approvalId) return { approval: "no_approval_request" };
  const client = g.client;
  const request = await client.approvalRequest.findUniqueOrThrow({ where: { id: approvalId } });
  const actor = await userOfRole(g, approval.as);
  const now = approval.afterExpiry ? new Date(request.expiresAt.getTime() + 1000) : undefined;
  const note = approval.note ?? (approval.decision === "reject" ? "Rejected by the grader." : null);
  let refused: string | undefined;
  const decided = await decideApproval({ approvalId: request.id, decision: approval.decision, digest: request.digest, note, actor: { id: actor.id, role: approval.as }, client, now }).catch((error: unknown) => {
    if (!isAppError(error, ...DECISION_REFUSALS)) throw error;
    refused = error.code;
    return null;
  });
  if (!decided) return { approval: refused };
  if (!decided.refundJobEnqueued) return { approval: "decided" };
  const executions: string[] = [(await settleApprovedRefund({ approvalId: request.id, client })).outcome];
  for (let i = 1; i < approval.executions; i++) executions.push((await executeApprovedRefund({ approvalId: request.id, actor: { type: "user", id: actor.id }, client })).outcome);
  return { approval: "decided", executions };
}

/**
 * The ledger rows of the episode's order once everything ran. A refund auto-approved within the dial
 * is executed by its job: settled here as the worker would. The refunds are counted from the ledger,
 * in the same statement when nothing was left to settle.
 */
async function countRefunds(g: TGradingDb, world: TEpisodeWorld): Promise<number> {
  const ledger = () =>
    driverRows(
      g.client,
      `SELECT (SELECT count(*) FROM "LedgerEntry" WHERE "orderId" = $2)::text AS refunds,
              (SELECT string_agg("id"::text, ',') FROM "ApprovalRequest"
                WHERE "ticketId" = $1::uuid AND "kind" = 'refund' AND "status" = 'approved' AND "executionOutcome" IS NULL) AS unsettled`,
      [world.ticketId, world.orderId],
    ).then(([row]) => ({ refunds: Number(row!.refunds), unsettled: row!.unsettled ? row!.unsettled.split(",") : [] }));
  let counted = await ledger();
  if (counted.unsettled.length) {
    for (const approvalId of counted.unsettled) await settleApprovedRefund({ approvalId, client: g.client });
    counted = await ledger();
  }
  return world.orderId ? counted.refunds : 0;
}

/** Plays one episode under its tag, as `actorId` (the grader), and reads its outcome. */
/** The episode's outcome, and what its run cost (run-cost.ts; null: a model with no configured price). */
export async function playEpisode(
  g: TGradingDb,
  episode: TEpisode,
  tag: string,
  models: TModelEndpoints,
  actorId: string,
): Promise<{ actual: TActualOutcome; costUsd: number | null; stopDetail: string | null }> {
  const world = await materializeEpisode(g, episode, tag, actorId);
  const setup = plannerFor(episode, world, models);
  const run = await runAgent({ ticketId: world.ticketId, mode: episode.mode, planner: setup.planner, model: setup.model, budgets: runBudgets(episode, setup.local), tools: { ...setup.tools, ...faultyTools(episode) }, client: g.client });
  const actual: TActualOutcome = {
    status: run.status,
    reason: run.reason,
    path: run.path,
    citations: run.citations,
    refunds: 0,
    proposal: run.proposal ? { decision: run.proposal.decision, requiredRole: run.proposal.requiredRole } : null,
  };
  if (episode.approval) Object.assign(actual, await decideEpisodeApproval(g, episode.approval, run.approval?.id));
  actual.refunds = await countRefunds(g, world);
  // Why the run stopped where a step stopped it (a tool's error message): what a failed episode's
  // explanation adds to its outcome, which holds only the reason code.
  const stopped = run.steps.findLast((s) => s.reason !== null)?.result as { detail?: unknown } | undefined;
  return { actual, costUsd: runCost(run.steps), stopDetail: typeof stopped?.detail === "string" ? stopped.detail : null };
}
