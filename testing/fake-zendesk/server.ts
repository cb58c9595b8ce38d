// A stand-in for Zendesk's Support API, stateful where delivery depends on it: tickets with their tags
// and comments, an update applied whole (comment and tags together), basic auth as `email/token:TOKEN`.
// Faults are injected by the test: the next requests answered with a status, or an update applied and
// then never answered (the answer lost, the caller killed while it waits).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface TFakeComment {
  id: number;
  body: string;
  public: boolean;
}
export interface TFakeTicket {
  id: number;
  subject: string;
  requesterEmail: string;
  tags: string[];
  comments: TFakeComment[];
}

export interface TFakeZendesk {
  url: string;
  email: string;
  token: string;
  tickets: Map<number, TFakeTicket>;
  addTicket(t: { id: number; subject: string; requesterEmail: string; body: string }): TFakeTicket;
  /** The next `count` requests are answered with `status` and change nothing. */
  failNext(count: number, status: number): void;
  /** The next update is applied, and its answer never sent. */
  hangAfterNextUpdate(): void;
  /** Resolves when an update that will never be answered has been applied. */
  updateHanging(): Promise<void>;
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

const view = (t: TFakeTicket) => ({ id: t.id, subject: t.subject, tags: t.tags, requester: { email: t.requesterEmail } });

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeZendesk(options: { port?: number } = {}): Promise<TFakeZendesk> {
  const email = "agent@example.com";
  const token = "fake-zendesk-token";
  const tickets = new Map<number, TFakeTicket>();
  const requests: { method: string; path: string }[] = [];
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  let hangNext = false;
  let hung: () => void = () => {};
  const hanging = new Promise<void>((resolve) => (hung = resolve));
  const held: ServerResponse[] = [];
  let commentId = 1000;

  const authorized = (req: IncomingMessage) =>
    req.headers.authorization === `Basic ${Buffer.from(`${email}/token:${token}`).toString("base64")}`;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? "").split("?")[0]!;
    requests.push({ method: req.method ?? "", path });
    const body = await readBody(req);
    if (!authorized(req)) return json(res, 401, { error: "Couldn't authenticate you" });
    if (failures.count > 0) {
      failures.count--;
      return json(res, failures.status, { error: "injected" });
    }
    const ticketMatch = /^\/api\/v2\/tickets\/(\d+)(\/comments)?\.json$/.exec(path);
    const ticket = ticketMatch ? tickets.get(Number(ticketMatch[1])) : undefined;
    if (!ticketMatch || !ticket) return json(res, 404, { error: "RecordNotFound", description: "Not found" });
    if (req.method === "GET" && ticketMatch[2]) return json(res, 200, { comments: ticket.comments, next_page: null });
    if (req.method === "GET") return json(res, 200, { ticket: view(ticket) });
    if (req.method !== "PUT" || ticketMatch[2]) return json(res, 405, { error: "Method not allowed" });
    const update =
      (JSON.parse(body) as { ticket?: { comment?: { body?: string; public?: boolean }; additional_tags?: string[] } }).ticket ?? {};
    // Applied whole: the comment and the tags, or nothing.
    if (update.comment?.body) ticket.comments.push({ id: ++commentId, body: update.comment.body, public: update.comment.public !== false });
    for (const tag of update.additional_tags ?? []) if (!ticket.tags.includes(tag)) ticket.tags.push(tag);
    if (hangNext) {
      hangNext = false;
      held.push(res);
      hung();
      return;
    }
    return json(res, 200, { ticket: view(ticket), audit: { id: commentId } });
  }

  const server: Server = createServer((req, res) => void handle(req, res).catch(() => json(res, 500, { error: "fake failed" })));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v2`,
    email,
    token,
    tickets,
    requests,
    addTicket(t) {
      const ticket = {
        id: t.id,
        subject: t.subject,
        requesterEmail: t.requesterEmail,
        tags: [],
        comments: [{ id: ++commentId, body: t.body, public: true }],
      };
      tickets.set(t.id, ticket);
      return ticket;
    },
    failNext: (count, status) => void (failures = { count, status }),
    hangAfterNextUpdate: () => void (hangNext = true),
    updateHanging: () => hanging,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
