// The trajectory grader (trajectory-gate-v1): every episode runs through the real runtime – planner,
// validator, transition rules, policy gate, tools, approvals, executor – on a fresh database, and its
// outcome is compared field by field with the expected one. A failure says exactly what differed.
import { newPglite } from "../db/pglite";
import type { PrismaClient } from "../../generated/prisma/client";
import { openDb, type DbHandle } from "../db";
import { migrationSql } from "../db/migration-files";
import { intakeBundleKey } from "../env";
import { createTicket } from "../intake/create-ticket";
import { classifyTicket, BUILTIN_BUNDLE_VERSION } from "../intake/builtin-bundle";
import { signRoute } from "../intake/route-signature";
import { scriptedPlanner, type TPlanner, type TPlannerOutput } from "../agent/planner";
import { rulePlanner } from "../agent/rule-planner";
import { runAgent } from "../agent/run-agent";
import type { TToolSet } from "../agent/tools";
import { plannerSetup } from "../llm/choose-planner";
import type { TLlmConfig } from "../llm/provider";
import { startFakeOpenAI, type TFakeEntry, type TFakeOpenAI } from "../llm/fake-openai-server";
import { decideApproval, DECISION_REFUSALS } from "../approvals/decide-approval";
import { isAppError } from "../contracts/app-error";
import { executeApprovedRefund } from "../ledger/execute-approved-refund";
import { settleApprovedRefund } from "../approvals/settle-refund";
import type { TDataset, TEpisode } from "./episode";

/** This grader's own identity; the manifest's graderVersion must name it (lib/contracts/pins.test.ts). */
export const GRADER_VERSION = "trajectory-gate-v1";
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

export interface TEpisodeRow {
  episodeId: string;
  trial: number;
  passed: boolean;
  expected: TEpisode["expect"];
  actual: TActualOutcome | null;
  /** Why it failed, precisely; null when it passed. */
  explanation: string | null;
}

/** Writes the world the episodes are written against into a fresh grading database: for the dataset
 * in eval/, the demo seed (prisma/seed/demo.ts). The caller's to give: the grader knows no seed data. */
export type TGradingWorld = (client: PrismaClient) => Promise<unknown>;

export interface TGradeOptions {
  world: TGradingWorld;
  trials?: number;
  /** The configured model endpoint. Without one, model episodes run against the local fake server. */
  llm?: TLlmConfig;
  onProgress?: (done: number, total: number, row: TEpisodeRow) => void;
}

const TEMPLATE_ORDERS: Record<string, string> = { tablet: "ORD-1001", laptop: "ORD-1002", flagged: "ORD-1003", old: "ORD-1004" };
const PRESET_OF_ORDER = Object.fromEntries(Object.entries(TEMPLATE_ORDERS).map(([k, v]) => [v, k]));

/** A fresh in-memory database, migrated, with the episodes' world written into it. */
export async function openGradingDatabase(world: TGradingWorld): Promise<DbHandle> {
  const pglite = newPglite();
  for (const { sql } of await migrationSql()) await pglite.exec(sql);
  const handle = openDb({ kind: "pglite", pglite });
  await world(handle.client);
  return { ...handle, close: async () => (await handle.close(), await pglite.close()) };
}

interface TWorld {
  ticketId: string;
  orderId: string | null;
}

/** The episode's own ticket, customer and order: no episode sees another's refunds or limits. */
async function materialize(client: PrismaClient, episode: TEpisode, tag: string): Promise<TWorld> {
  let subject: string, body: string, preset: string, route: "guarded_agent" | "human_review_now" | undefined, bundleVersion: string | undefined;
  let signature: "valid" | "missing" | "forged" = "valid";
  let from: "customer" | "stranger" = "customer";
  if ("seeded" in episode.ticket) {
    const seed = await client.ticket.findUnique({ where: { externalId: episode.ticket.seeded } });
    if (!seed) throw new Error(`no seeded ticket ${episode.ticket.seeded}`);
    ({ subject, body, route, bundleVersion } = seed);
    preset = seed.orderRef ? (PRESET_OF_ORDER[seed.orderRef] ?? "missing") : "none";
    if (seed.orderRef && preset !== "missing") body = body.replaceAll(seed.orderRef, "{order}");
  } else {
    ({ subject, body, route, bundleVersion, signature, from } = episode.ticket);
    preset = episode.ticket.order;
  }

  let orderId: string | null = null;
  if (preset === "missing") orderId = `ORD-MISSING-${tag}`;
  else if (preset !== "none") {
    const template = await client.order.findUniqueOrThrow({ where: { id: TEMPLATE_ORDERS[preset]! }, include: { customer: true } });
    const customer = await client.customer.create({ data: { id: `CUS-${tag}`, email: `${tag.toLowerCase()}@eval.example`, name: template.customer.name, flagged: template.customer.flagged } });
    orderId = `ORD-${tag}`;
    const { id: _id, customerId: _c, createdAt: _t, customer: _cust, ...rest } = template;
    await client.order.create({ data: { ...rest, id: orderId, customerId: customer.id } });
  }
  body = body.replaceAll("{order}", orderId ?? "");

  const externalId = `eval-${tag}`;
  const claim = { ticketId: externalId, route: route ?? classifyTicket({ subject, body }).route, bundleVersion: bundleVersion ?? BUILTIN_BUNDLE_VERSION };
  const routeSignature = signature === "valid" ? signRoute(claim, intakeBundleKey()) : signature === "forged" ? "0".repeat(64) : null;
  const ticket = await client.$transaction((tx) =>
    createTicket(
      { subject, body, customerEmail: from === "stranger" ? `stranger-${tag.toLowerCase()}@eval.example` : `${tag.toLowerCase()}@eval.example`, orderRef: orderId, source: "seed", externalId, routed: { route: claim.route, bundleVersion: claim.bundleVersion, signature: routeSignature } },
      { type: "system", id: GRADER_VERSION },
      tx,
    ),
  );
  return { ticketId: ticket.id, orderId };
}

/** `{order}` anywhere in a scripted decision becomes the episode's order id. */
function withOrder(value: unknown, orderId: string): unknown {
  if (typeof value === "string") return value.replaceAll("{order}", orderId);
  if (Array.isArray(value)) return value.map((v) => withOrder(v, orderId));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withOrder(v, orderId)]));
  return value;
}

export function usesModel(episode: TEpisode): boolean {
  return episode.planner === "model" || (typeof episode.planner === "object" && "model" in episode.planner);
}

interface TModelEndpoints {
  configured?: TLlmConfig;
  fake: TFakeOpenAI | null;
}

function plannerFor(episode: TEpisode, world: TWorld, models: TModelEndpoints): { planner: TPlanner; tools: Partial<TToolSet>; model: string | null } {
  if (episode.planner === "rule") return { planner: rulePlanner, tools: {}, model: null };
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
    const config = !scripted && models.configured ? models.configured : { baseURL: fake.url, apiKey: "fake", model: FAKE_MODEL, timeoutMs: slow ? 2_000 : 12_000 };
    return plannerSetup("model", config);
  }
  const { scripted, usagePerStep, delayMs } = episode.planner;
  const inner = scriptedPlanner(scripted.map((decision): TPlannerOutput => ({ decision: withOrder(decision, world.orderId ?? ""), usage: usagePerStep })), { wrapped: true });
  if (!delayMs) return { planner: inner, tools: {}, model: null };
  return { planner: { id: "scripted", decide: async (state, signal) => (await new Promise((r) => setTimeout(r, delayMs)), inner.decide(state, signal)) }, tools: {}, model: null };
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

async function play(client: PrismaClient, episode: TEpisode, tag: string, models: TModelEndpoints): Promise<TActualOutcome> {
  const world = await materialize(client, episode, tag);
  const setup = plannerFor(episode, world, models);
  const run = await runAgent({ ticketId: world.ticketId, mode: episode.mode, planner: setup.planner, model: setup.model, budgets: episode.budgets, tools: { ...setup.tools, ...faultyTools(episode) }, client });
  const actual: TActualOutcome = {
    status: run.status,
    reason: run.reason,
    path: run.path,
    citations: run.citations,
    refunds: 0,
    proposal: run.proposal ? { decision: run.proposal.decision, requiredRole: run.proposal.requiredRole } : null,
  };
  if (episode.approval) {
    const a = episode.approval;
    if (!run.approval?.id) actual.approval = "no_approval_request";
    else {
      const request = await client.approvalRequest.findUniqueOrThrow({ where: { id: run.approval.id } });
      const actor = await client.user.findFirstOrThrow({ where: { role: a.as } });
      const now = a.afterExpiry ? new Date(request.expiresAt.getTime() + 1000) : undefined;
      // A refused decision is an outcome to grade; anything else, and anything the execution throws, fails.
      const decided = await decideApproval({ approvalId: request.id, decision: a.decision, digest: request.digest, note: a.note ?? (a.decision === "reject" ? "Rejected by the grader." : null), actor: { id: actor.id, role: actor.role }, client, now }).catch(
        (error: unknown) => {
          if (!isAppError(error, ...DECISION_REFUSALS)) throw error;
          actual.approval = error.code;
          return null;
        },
      );
      if (decided) {
        actual.approval = "decided";
        if (decided.refundJobEnqueued) {
          // What the refund job does, done here: the grading database runs no worker.
          actual.executions = [(await settleApprovedRefund({ approvalId: request.id, client, now })).outcome];
          for (let i = 1; i < a.executions; i++) actual.executions.push((await executeApprovedRefund({ approvalId: request.id, actor: { type: "user", id: actor.id }, client, now })).outcome);
        }
      }
    }
  }
  // A refund auto-approved within the dial is executed by its job: settle it as the worker would.
  for (const auto of await client.approvalRequest.findMany({ where: { ticketId: world.ticketId, kind: "refund", status: "approved", executionOutcome: null }, select: { id: true } })) {
    await settleApprovedRefund({ approvalId: auto.id, client });
  }
  actual.refunds = world.orderId ? await client.ledgerEntry.count({ where: { orderId: world.orderId } }) : 0;
  return actual;
}

/** What differs between expected and actual, in words; null when nothing does. */
export function explainDifference(expected: TEpisode["expect"], actual: TActualOutcome): string | null {
  const problems: string[] = [];
  const p = (field: string, want: unknown, got: unknown) => problems.push(`${field}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  if (expected.status !== actual.status) p("status", expected.status, actual.status);
  if (expected.reason !== actual.reason) p("reason", expected.reason, actual.reason);
  const len = Math.max(expected.path.length, actual.path.length);
  for (let i = 0; i < len; i++) {
    if (expected.path[i] !== actual.path[i]) {
      problems.push(
        `path differs at step ${i + 1}: expected ${expected.path[i] ?? "(end)"}, got ${actual.path[i] ?? "(end)"} — expected [${expected.path.join(" → ")}], actual [${actual.path.join(" → ")}]`,
      );
      break;
    }
  }
  if (JSON.stringify([...expected.citations].sort()) !== JSON.stringify([...actual.citations].sort())) p("citations", expected.citations, actual.citations);
  if (expected.refunds !== actual.refunds) p("refunds", expected.refunds, actual.refunds);
  if (expected.proposal !== undefined) {
    const want = expected.proposal;
    const got = actual.proposal;
    if ((want === null) !== (got === null) || (want && got && (want.decision !== got.decision || (want.requiredRole !== undefined && want.requiredRole !== got.requiredRole)))) p("proposal", want, got);
  }
  if (expected.approval !== undefined && expected.approval !== actual.approval) p("approval", expected.approval, actual.approval);
  if (expected.executions !== undefined && JSON.stringify(expected.executions) !== JSON.stringify(actual.executions)) p("executions", expected.executions, actual.executions);
  return problems.length ? problems.join("; ") : null;
}

export async function gradeEpisodes(dataset: TDataset, options: TGradeOptions): Promise<TEpisodeRow[]> {
  const trials = options.trials ?? 1;
  const handle = await openGradingDatabase(options.world);
  const needsFake = dataset.episodes.some((e) => usesModel(e) && (e.planner !== "model" || !options.llm));
  const models: TModelEndpoints = { configured: options.llm, fake: needsFake ? await startFakeOpenAI() : null };
  const rows: TEpisodeRow[] = [];
  const total = dataset.episodes.length * trials;
  let n = 0;
  try {
    for (const episode of dataset.episodes) {
      for (let trial = 1; trial <= trials; trial++) {
        n++;
        const tag = `EV${String(n).padStart(5, "0")}`;
        let row: TEpisodeRow;
        try {
          const actual = await play(handle.client, episode, tag, models);
          const explanation = explainDifference(episode.expect, actual);
          row = { episodeId: episode.id, trial, passed: explanation === null, expected: episode.expect, actual, explanation };
        } catch (error) {
          row = { episodeId: episode.id, trial, passed: false, expected: episode.expect, actual: null, explanation: `the episode could not run: ${error instanceof Error ? error.message : String(error)}` };
        }
        rows.push(row);
        options.onProgress?.(n, total, row);
      }
    }
  } finally {
    await handle.close();
    await models.fake?.close();
  }
  return rows;
}
