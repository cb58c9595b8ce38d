// Step 1 of the loop: is the planner's output a decision the runtime may consider at all? Held to the
// action vocabulary (lib/contracts/actions.ts) and the manifest's forbidden actions.
import { ACTION_ARGS, type TActionName, type TAllowedAction } from "../contracts/actions";
import type { TStopReason } from "../contracts/reason-codes";

export type TDecisionCheck =
  | { ok: true; action: TAllowedAction }
  | {
      ok: false;
      reason: Extract<
        TStopReason,
        | "invalid_decision"
        | "invalid_action"
        | "forbidden_action"
        | "invalid_arguments"
        | "missing_arguments"
        | "unexpected_arguments"
        | "invalid_argument_types"
      >;
      detail: string;
      action?: string;
    };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/**
 * Step 1 of the loop: is this a decision the runtime may consider at all? Checked in this order:
 * an object with exactly `action` and `args`; `action` a string; not forbidden; on the allowlist;
 * `args` an object with exactly the schema's keys, of the schema's types, within its limits.
 */
export function validateDecision(raw: unknown, forbidden: readonly string[]): TDecisionCheck {
  if (!isPlainObject(raw)) return { ok: false, reason: "invalid_decision", detail: "the decision is not an object" };
  const extra = Object.keys(raw).filter((k) => k !== "action" && k !== "args");
  if (extra.length) return { ok: false, reason: "invalid_decision", detail: `unexpected decision fields: ${extra.join(", ")}` };
  const { action, args = {} } = raw;
  if (typeof action !== "string" || !action) return { ok: false, reason: "invalid_decision", detail: "`action` is not a non-empty string" };
  const name = action.slice(0, 80);
  if (forbidden.includes(action))
    return { ok: false, reason: "forbidden_action", detail: `${name} is forbidden to the agent`, action: name };
  if (!Object.hasOwn(ACTION_ARGS, action))
    return { ok: false, reason: "invalid_action", detail: `${name} is not an allowlisted action`, action: name };
  const schema = ACTION_ARGS[action as TActionName];
  if (!isPlainObject(args)) return { ok: false, reason: "invalid_arguments", detail: "`args` is not an object", action };

  const expected = Object.keys(schema.shape);
  const missing = expected.filter((k) => !Object.hasOwn(args, k) || args[k] === undefined);
  if (missing.length) return { ok: false, reason: "missing_arguments", detail: `missing: ${missing.join(", ")}`, action };
  const unexpected = Object.keys(args).filter((k) => !expected.includes(k));
  if (unexpected.length)
    return { ok: false, reason: "unexpected_arguments", detail: `unexpected: ${unexpected.slice(0, 10).join(", ")}`, action };

  const parsed = schema.safeParse(args);
  if (!parsed.success) {
    const wrongType = parsed.error.issues.find((i) => i.code === "invalid_type");
    const issue = wrongType ?? parsed.error.issues[0]!;
    const detail = `${issue.path.join(".")}: ${issue.message}`;
    return { ok: false, reason: wrongType ? "invalid_argument_types" : "invalid_arguments", detail, action };
  }
  return { ok: true, action: { action, args: parsed.data } as TAllowedAction };
}
