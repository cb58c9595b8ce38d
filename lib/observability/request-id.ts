import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "x-request-id";

// What a proxy or a load balancer in front usually sends (a UUID, hex, a ULID, `host/id-n`), and
// nothing that could forge a line or a header: letters, digits and . _ : / -, 8 to 128 of them.
const WELL_FORMED = /^[A-Za-z0-9._:/-]{8,128}$/;

/** The request's id: the caller's `x-request-id` when it is well-formed, otherwise a new one. */
export function requestIdFrom(header: string | string[] | null | undefined): string {
  return typeof header === "string" && WELL_FORMED.test(header) ? header : randomUUID();
}
