// The helpdesk's erasure request, signed (lib/intake/receive-intake.ts, receiveErasureIntake),
// answered in the intake API's own words: 200 with what was erased, 404 for no such customer, 409
// with the reason code when a refund in flight or a legal hold refuses it.
import { isAppError } from "../contracts/app-error";
import type { TErasureRequest, TIntakeResponse } from "../intake/receive-intake";
import { eraseCustomer } from "./erase-customer";

/** The actor the audit event names for an erasure the helpdesk asked for. */
export const HELPDESK_ERASURE_ACTOR = "helpdesk";

export async function storeErasureRequest(request: TErasureRequest): Promise<TIntakeResponse> {
  try {
    const erased = await eraseCustomer({ customerId: request.customerId, actor: { type: "api", id: HELPDESK_ERASURE_ACTOR } });
    return {
      status: 200,
      body: { status: erased.erasedNow ? "erased" : "already_erased", customerId: erased.customerId, tickets: erased.tickets },
    };
  } catch (error) {
    if (isAppError(error, "not_found")) return { status: 404, body: { error: "not_found", message: error.message } };
    if (isAppError(error, "erasure_refund_in_flight", "erasure_legal_hold"))
      return { status: 409, body: { error: error.code, message: error.message } };
    throw error;
  }
}
