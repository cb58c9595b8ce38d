// The one domain error. Every refusal a person or a caller can act on is an AppError with a code from
// ERROR_CODES: the code is what code branches on (a page offers "run again" for `stale`), the message
// is written for the person, and the HTTP status comes from the table, never chosen at the throw.
// The action and route wrappers (lib/auth/authed.ts) turn an AppError into a result carrying its code
// and message; anything else is logged and answered with a generic message.
//
// Adding a code: add it here with its status and what it means; the table's test
// (lib/auth/action-result.test.ts) walks every code through an action and out of a route.

export const ERROR_CODES = {
  // The caller or the input
  unauthenticated: { http: 401, meaning: "No session: sign in first." },
  forbidden: { http: 403, meaning: "The caller's role may not do this at all." },
  role_insufficient: { http: 403, meaning: "This particular item needs a higher role than the caller's (a refund above a reviewer's reach)." },
  invalid: { http: 400, meaning: "The input does not have the right shape or values; fieldErrors say where." },
  note_required: { http: 400, meaning: "A rejection needs a note saying why." },
  amount_not_lowered: { http: 400, meaning: "An edited refund may only be lower than the one proposed (and above zero); raising it needs a new run." },
  reply_contradicts_operation: { http: 400, meaning: "The reply to the customer states an amount other than the refund being made, or promises a refund that is not being made; the message quotes the sentence and the field names the reply." },
  reply_staff_only: { http: 400, meaning: "The reply to the customer repeats a passage written for staff only (a reviewer's note, an internal instruction); the message quotes the sentence and the field names the reply." },
  reply_required: { http: 400, meaning: "Resolving a ticket by hand needs the reply the customer will receive." },
  foreign_origin: { http: 403, meaning: "A server action was sent from a page of another site (or with no Origin at all); it did not run. Reload the app from its own address." },
  import_too_large: { http: 413, meaning: "An import of policy documents has more files, or more bytes in one file or in all, than one import takes: split it; nothing was imported." },
  not_the_author: { http: 403, meaning: "Only the author of a draft may change it; import or write a version of your own instead." },
  author_cannot_publish: { http: 403, meaning: "A policy version is published by a second person: neither its author nor whoever sent it to review may publish it." },
  not_found: { http: 404, meaning: "The ticket, approval, job or other item named does not exist." },

  // The state moved on
  already_decided: { http: 409, meaning: "The approval was decided already (perhaps by someone else a moment ago)." },
  expired: { http: 409, meaning: "The approval passed its expiry; run the agent again for a fresh one." },
  stale: { http: 409, meaning: "What the caller acted on changed since they saw it (the policy's settings or its published documents, the bundle or the agent; the settings form); run again or reload." },
  superseded: { http: 409, meaning: "A newer run replaced this approval, or the customer wrote again, or a reviewer sent the draft back; decide the newest one." },
  approved_meanwhile: { http: 409, meaning: "Another person approved a two-person request at the same moment and took the approval this one was for: this one was not recorded, and the request waits for its next approval (reload, and approve again if you may)." },
  second_approver_required: { http: 409, meaning: "A two-person approval needs a different person for its second approval; the same person cannot give both." },
  run_starter_excluded: { http: 403, meaning: "Whoever started the agent's run, or lowered the refund, may not approve its two-person refund." },
  exceeds_refundable: { http: 409, meaning: "The refund is more than its order still allows (refunds already made leave less): lower it to what remains, or reject it." },
  operation_changed: { http: 409, meaning: "The approval's operation is not the one the person was shown (its digest differs)." },
  erasure_refund_in_flight: { http: 409, meaning: "The customer has a refund waiting for a decision, approved but not executed, or not yet settled at the payment provider: erase them once it has ended." },
  erasure_legal_hold: { http: 409, meaning: "A legal hold on the customer or on one of their tickets suspends erasure (and retention) until it is lifted." },
  export_unavailable: { http: 409, meaning: "The customer's data export is not ready yet, or was downloaded already (an export is handed out once), or was discarded by an erasure: request a new one." },
  ticket_busy: { http: 409, meaning: "A run or an approved refund holds the ticket; wait for it to finish." },
  ticket_claimed: { http: 409, meaning: "Someone else holds the ticket: a claim takes only an unassigned one (or one the caller holds); assign it instead." },
  ticket_resolved: { http: 409, meaning: "The ticket is resolved; a live run or a decision on it is refused (simulate still works)." },
  invalid_ticket_state: { http: 409, meaning: "The ticket's status does not allow this move." },
  insufficient_evidence: { http: 409, meaning: "Raising the autonomy dial needs more agreeing shadow decisions, and no disagreement." },
  document_state: { http: 409, meaning: "The policy version is not in the state this needs: only a draft is edited or sent to review, only a version in review is published or withdrawn, only a published document is retired." },
  evaluation_required: { http: 409, meaning: "A policy version is published only after an evaluation of its exact content has finished: evaluate it (again, if it changed since), then publish." },
  regression_unacknowledged: { http: 409, meaning: "The evaluation of this content found regressions (answers lost, episodes that fail) that nobody has acknowledged by name: look at them, acknowledge them (or change the draft), then publish." },
  evaluation_state: { http: 409, meaning: "The evaluation is not in the state this needs: only a finished evaluation with regressions, of the version's current content, is acknowledged, and only once." },
  publish_blocked: { http: 409, meaning: "The version's evaluation does not let it be published yet (the message says why: no finished evaluation of this content, or a regression nobody acknowledged by name)." },
  annotation_state: { http: 409, meaning: "The run or the episode is not in the state this needs: a running run is not judged, an episode is saved once and only from a judged run, and only a candidate is promoted or discarded." },
  not_failed: { http: 409, meaning: "Only a failed job can be retried." },
  user_inactive: { http: 409, meaning: "The person is deactivated: reactivate them first." },
  last_admin: { http: 409, meaning: "The change would leave no active admin; make someone else an admin first." },
  break_glass_admin: {
    http: 409,
    meaning:
      "While sign-in through the identity provider is required, this person is the break-glass admin, who signs in with a password when the provider cannot: they stay an active admin. Name another break-glass admin (Admin → Sign-in) first.",
  },
  break_glass_required: {
    http: 409,
    meaning:
      "Requiring sign-in through the identity provider needs a provider configured and a break-glass admin who can still sign in with a password (an active admin whose password is set); nothing was saved.",
  },

  // Something the app depends on
  planner_unavailable: { http: 503, meaning: "The chosen planner cannot run (no model configured or reachable)." },
  internal: { http: 500, meaning: "Anything unexpected: logged in full, answered with a generic message." },
} as const satisfies Record<string, { http: number; meaning: string }>;

export type TErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as TErrorCode[];

export function isErrorCode(value: unknown): value is TErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CODES, value);
}

/** The generic answer for anything that is not an AppError: internals never reach the browser. */
export const GENERIC_ERROR = "Something went wrong. Nothing was changed; try again, and tell an admin if it keeps happening.";

/** An expected refusal: a code from the table and a message written for the person. */
export class AppError<C extends TErrorCode = TErrorCode> extends Error {
  constructor(
    readonly code: C,
    message: string,
    /** The input field the refusal is about, when there is one (a form shows it beside the field). */
    readonly field?: string,
  ) {
    super(message);
    this.name = "AppError";
  }

  /** The status a route answers with: the table's, for every throw of this code. */
  get httpStatus(): number {
    return ERROR_CODES[this.code].http;
  }
}

/** An AppError of one of the given codes (a caller that handles some refusals itself). */
export function isAppError<C extends TErrorCode>(error: unknown, ...codes: C[]): error is AppError<C> {
  return error instanceof AppError && (codes.length === 0 || (codes as TErrorCode[]).includes(error.code));
}
