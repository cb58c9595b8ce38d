// One POST to a webhook target that checkWebhookTarget accepted, connected to the address it checked
// (node's `lookup` option answers with it: the name is not resolved a second time, so a name that
// changes its answer between the check and the connection cannot lead the request inside).
//
// What comes back tells a person what they can act on, and nothing about the network behind the
// receiver: the status of a receiver that answered, or one "no answer" for everything else
// (refused, reset, timed out, spoke something other than HTTP). Telling those apart would turn the
// Jobs page into a port scanner of wherever the URL points.
import { request as httpRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { TResolvedTarget } from "../policy/webhook-target";

export type TPostOutcome = { status: number } | { status: null };

export function postToTarget(input: {
  target: TResolvedTarget;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}): Promise<TPostOutcome> {
  const { url, address, family } = input.target;
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const options: RequestOptions = {
    method: "POST",
    headers: { ...input.headers, "content-length": String(Buffer.byteLength(input.body)) },
    lookup: pinned,
    timeout: input.timeoutMs,
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: TPostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(outcome);
    };
    const req = send(url, options, (res) => {
      // The answer's body is not needed; reading it frees the connection.
      res.resume();
      settle({ status: res.statusCode ?? 0 });
    });
    // The socket's timeout covers idle time; this covers the whole attempt (a receiver that trickles).
    const deadline = setTimeout(() => req.destroy(new Error("timeout")), input.timeoutMs);
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => settle({ status: null }));
    req.end(input.body);
  });
}
