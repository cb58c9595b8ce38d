// Replies as public comments on the customer's Zendesk ticket, through the maintained `node-zendesk`
// client. Exactly once per delivery, across retries and crashes: the comment and a tag naming the
// delivery are one ticket update (Zendesk applies an update whole), and every attempt first reads the
// ticket's tags. An attempt that died after Zendesk applied its update (a worker killed, an answer
// lost) is found out by the next one, which posts nothing.
import zendesk from "node-zendesk";
import { DeliveryRefused, DELIVERY_TIMEOUT_MS, type TChannel, type TOutgoingReply } from "./channel";

export interface TZendeskConfig {
  /** The API root, e.g. https://your-team.zendesk.com/api/v2 (node-zendesk's endpointUri). */
  url: string;
  email: string;
  token: string;
  timeoutMs?: number;
}

/** The tag that marks a ticket as carrying this delivery's comment (Zendesk tags: letters, digits, _). */
export function deliveryTag(deliveryId: string): string {
  return `countersign_${deliveryId.replaceAll("-", "")}`;
}

function clientFor(config: TZendeskConfig) {
  const timeoutMs = config.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  return zendesk.createClient({
    username: config.email,
    token: config.token,
    endpointUri: config.url.replace(/\/+$/, ""),
    throwOriginalException: true,
    logger: { debug() {}, info() {}, warn() {}, error() {}, fatal() {}, trace() {} },
    transportConfig: {
      // node-zendesk's own transport, with a time limit on each request.
      transportFn: (uri: string, options: RequestInit) => fetch(uri, { ...options, signal: AbortSignal.timeout(timeoutMs) }),
      responseAdapter: (response: Response) => ({
        json: () => response.json(),
        status: response.status,
        headers: { get: (name: string) => response.headers.get(name) },
        statusText: response.statusText,
      }),
    },
  });
}

function statusOf(error: unknown): number | null {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === "number" ? status : null;
}

export function zendeskChannel(config: TZendeskConfig): TChannel {
  const client = clientFor(config);
  return {
    name: "zendesk",
    async send(reply: TOutgoingReply) {
      const ticketId = reply.thread?.channel === "zendesk" ? reply.thread.externalTicketId : null;
      if (!ticketId)
        throw new DeliveryRefused("no_helpdesk_thread", "The ticket did not come from Zendesk: there is no Zendesk ticket to answer.");
      const tag = deliveryTag(reply.deliveryId);
      try {
        const { result } = (await client.tickets.show(Number(ticketId))) as { result: { tags?: string[] } };
        if (result.tags?.includes(tag)) return `zendesk:${ticketId}`;
        // additional_tags adds to the ticket's tags (Zendesk's update API); the client's types know only `tags`, which replaces them.
        const update = { ticket: { comment: { body: reply.body, public: true }, additional_tags: [tag] } };
        await client.tickets.update(Number(ticketId), update as unknown as Parameters<typeof client.tickets.update>[1]);
        return `zendesk:${ticketId}`;
      } catch (error) {
        const status = statusOf(error);
        if (status === 404) throw new DeliveryRefused("helpdesk_ticket_missing", `Zendesk has no ticket ${ticketId}.`);
        if (status === 401 || status === 403)
          throw new Error(`Zendesk refused the credentials (${status}); check ZENDESK_EMAIL and ZENDESK_API_TOKEN.`);
        throw new Error(status ? `Zendesk answered ${status}.` : `No answer from Zendesk: ${(error as Error).message}`);
      }
    },
  };
}
