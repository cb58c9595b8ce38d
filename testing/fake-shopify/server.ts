// A stateful fake of the Shopify Admin GraphQL API, on loopback, for tests: POST
// /admin/api/{version}/graphql.json with X-Shopify-Access-Token, answered by graphql-js against the
// schema subset in schema.ts (an unknown field is a validation error, as at Shopify). It keeps orders,
// customers and refunds; refundCreate honours @idempotent(key:) – required, as from 2026-04 – the same
// key and input answering the first refund, another input under the key refused; and it can be told
// to fail: a 500, a slow answer, or an answer lost after the work was done. See README.md.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getDirectiveValues, graphql, GraphQLError, type GraphQLResolveInfo } from "graphql";
import { FAKE_SHOPIFY_SCHEMA } from "./schema";

export interface TFakeCustomer {
  id: string;
  displayName: string;
  email: string | null;
}

export interface TFakeOrder {
  id: string;
  name: string;
  email: string | null;
  customerId: string | null;
  createdAt: string;
  totalCents: number;
  currency: string;
  title: string;
  productType: string;
  deliveredAt: string | null;
  country: string | null;
  gateway: string;
}

/** A refund transaction's status at the payment gateway (Shopify's OrderTransactionStatus). */
export type TFakeTransactionStatus = "AWAITING_RESPONSE" | "ERROR" | "FAILURE" | "PENDING" | "SUCCESS" | "UNKNOWN";

export interface TFakeRefund {
  id: string;
  orderId: string;
  amountCents: number;
  note: string | null;
  createdAt: string;
  /** The refund's transaction at the gateway: SUCCESS for a refund made in the shop. */
  status: TFakeTransactionStatus;
  /** The gateway's error code when the transaction failed (e.g. CARD_DECLINED). */
  errorCode: string | null;
  gateway: string;
}

/**
 * 500: nothing done. slow: answered after `slowMs`. lost: the work done, the connection closed
 * without an answer. hold: the work done, the answer held for `slowMs` (a process killed meanwhile
 * never hears it).
 */
export type TFailure = "500" | "slow" | "lost" | "hold";

export interface TFakeShopify {
  /** The shop's origin, for SHOPIFY_SHOP_URL. */
  url: string;
  accessToken: string;
  addCustomer(c: { displayName: string; email: string | null }): TFakeCustomer;
  addOrder(o: Partial<Omit<TFakeOrder, "id">> & { totalCents: number; title: string }): TFakeOrder;
  /** A refund made by the shop's staff in the Shopify admin, outside any app. */
  refundInShop(orderId: string, amountCents: number, note?: string | null): TFakeRefund;
  refundsOf(orderId: string): TFakeRefund[];
  /** The status refunds made through refundCreate start in from now on (SUCCESS unless told). */
  refundsStartAs(status: TFakeTransactionStatus, errorCode?: string | null): void;
  /** The gateway settles a refund's transaction later: its status moves. */
  settleRefund(refundId: string, status: TFakeTransactionStatus, errorCode?: string | null): void;
  /** The next `times` requests – of the GraphQL operation named, or any – fail this way (slow, hold: `slowMs`). */
  failNext(kind: TFailure, times?: number, slowMs?: number, operation?: string): void;
  /** The order deleted in the shop's admin. */
  deleteOrder(orderId: string): void;
  /** Requests received, by GraphQL operation name ("anonymous" without one). */
  requests: Map<string, number>;
  close(): Promise<void>;
}

const money = (cents: number, currency: string) => {
  const amount = { amount: (cents / 100).toFixed(2), currencyCode: currency };
  return { shopMoney: amount, presentmentMoney: amount };
};

/** "12.34" → 1234, exactly; null for anything that is not a non-negative amount with at most two decimals. */
function cents(decimal: unknown): number | null {
  const m = typeof decimal === "string" || typeof decimal === "number" ? /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(String(decimal)) : null;
  return m ? Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0")) : null;
}

/** Stable JSON (keys sorted): what "the same input" means for an idempotency key. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value ?? null);
}

class Shop {
  readonly customers = new Map<string, TFakeCustomer>();
  readonly orders = new Map<string, TFakeOrder>();
  readonly refunds: TFakeRefund[] = [];
  readonly idempotency = new Map<
    string,
    { inputHash: string; refundId: string | null; userErrors: { field: string[]; message: string }[] }
  >();
  private next = 1000;

  gid(type: string): string {
    return `gid://shopify/${type}/${++this.next}`;
  }

  startAs: { status: TFakeTransactionStatus; errorCode: string | null } = { status: "SUCCESS", errorCode: null };

  /** What the order's refunds took from it: a refund whose transaction failed took nothing. */
  refundedCents(orderId: string): number {
    return this.refunds
      .filter((r) => r.orderId === orderId && r.status !== "FAILURE" && r.status !== "ERROR")
      .reduce((s, r) => s + r.amountCents, 0);
  }

  orderView(o: TFakeOrder) {
    const customer = o.customerId ? this.customers.get(o.customerId) : undefined;
    return {
      id: o.id,
      name: o.name,
      email: o.email,
      createdAt: o.createdAt,
      processedAt: o.createdAt,
      totalPriceSet: money(o.totalCents, o.currency),
      totalRefundedSet: money(this.refundedCents(o.id), o.currency),
      lineItems: ({ first }: { first?: number }) => ({
        nodes: [
          { id: `${o.id}/LineItem`, title: o.title, quantity: 1, product: { id: `${o.id}/Product`, productType: o.productType } },
        ].slice(0, first ?? 50),
      }),
      fulfillments: () => (o.deliveredAt ? [{ id: `${o.id}/Fulfillment`, deliveredAt: o.deliveredAt, createdAt: o.deliveredAt }] : []),
      shippingAddress: o.country ? { countryCodeV2: o.country } : null,
      customer: customer ? this.customerView(customer) : null,
      refunds: ({ first }: { first?: number }) =>
        this.refunds
          .filter((r) => r.orderId === o.id)
          .slice(0, first ?? 50)
          .map((r) => this.refundView(r)),
      paymentGatewayNames: [o.gateway],
    };
  }

  customerView(c: TFakeCustomer) {
    const [firstName, ...rest] = c.displayName.split(" ");
    return {
      id: c.id,
      displayName: c.displayName,
      firstName,
      lastName: rest.join(" ") || null,
      defaultEmailAddress: { emailAddress: c.email },
    };
  }

  refundView(r: TFakeRefund) {
    const order = this.orders.get(r.orderId)!;
    const transaction = {
      id: `${r.id}/OrderTransaction`,
      kind: "REFUND",
      status: r.status,
      gateway: r.gateway,
      amountSet: money(r.amountCents, order.currency),
      errorCode: r.errorCode,
      createdAt: r.createdAt,
    };
    return {
      id: r.id,
      createdAt: r.createdAt,
      note: r.note,
      totalRefundedSet: money(r.amountCents, order.currency),
      transactions: ({ first }: { first?: number }) => ({ nodes: [transaction].slice(0, first ?? 50) }),
    };
  }

  /** Shopify's order search, as far as the app uses it: `name:#1002` or `name:"#1002"`. */
  search(query: string | undefined, first: number | undefined) {
    const name = query ? /^name:"?([^"]+)"?$/.exec(query.trim())?.[1] : undefined;
    const all = [...this.orders.values()].filter((o) => name === undefined || o.name.toUpperCase() === name.toUpperCase());
    return { nodes: all.slice(0, first ?? 50).map((o) => this.orderView(o)) };
  }

  refundCreate(
    input: {
      orderId: string;
      note?: string | null;
      transactions?: { amount: unknown; kind: string; orderId: string; gateway: string }[] | null;
    },
    key: string,
  ) {
    const inputHash = createHash("sha256").update(canonical(input)).digest("hex");
    const seen = this.idempotency.get(key);
    if (seen) {
      if (seen.inputHash !== inputHash)
        throw new GraphQLError("The idempotency key was already used with a different input.", {
          extensions: { code: "IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_INPUT" },
        });
      const refund = this.refunds.find((r) => r.id === seen.refundId);
      return this.payload(refund ?? null, seen.userErrors);
    }
    const userErrors: { field: string[]; message: string }[] = [];
    const order = this.orders.get(input.orderId);
    const amounts = (input.transactions ?? []).filter((t) => t.kind === "REFUND").map((t) => cents(t.amount));
    const amount = amounts.reduce<number>((s, a) => s + (a ?? 0), 0);
    if (!order) userErrors.push({ field: ["orderId"], message: "Order does not exist" });
    else if (amounts.length === 0 || amounts.some((a) => a === null || a <= 0))
      userErrors.push({ field: ["transactions"], message: "Refund amount must be greater than 0" });
    else if (amount > order.totalCents - this.refundedCents(order.id))
      userErrors.push({ field: ["transactions"], message: "Refund amount is greater than the refundable amount" });
    let refund: TFakeRefund | null = null;
    if (userErrors.length === 0) {
      refund = {
        id: this.gid("Refund"),
        orderId: order!.id,
        amountCents: amount,
        note: input.note ?? null,
        createdAt: new Date().toISOString(),
        ...this.startAs,
        gateway: input.transactions?.[0]?.gateway ?? order!.gateway,
      };
      this.refunds.push(refund);
    }
    this.idempotency.set(key, { inputHash, refundId: refund?.id ?? null, userErrors });
    return this.payload(refund, userErrors);
  }

  private payload(refund: TFakeRefund | null, userErrors: { field: string[]; message: string }[]) {
    const order = refund ? this.orders.get(refund.orderId) : undefined;
    return { refund: refund ? this.refundView(refund) : null, order: order ? this.orderView(order) : null, userErrors };
  }
}

function rootValue(shop: Shop) {
  return {
    order: ({ id }: { id: string }) => {
      const o = shop.orders.get(id);
      return o ? shop.orderView(o) : null;
    },
    orders: ({ first, query }: { first?: number; query?: string }) => shop.search(query, first),
    refund: ({ id }: { id: string }) => {
      const r = shop.refunds.find((x) => x.id === id);
      return r ? shop.refundView(r) : null;
    },
    customer: ({ id }: { id: string }) => {
      const c = shop.customers.get(id);
      return c ? shop.customerView(c) : null;
    },
    refundCreate: (args: { input: Parameters<Shop["refundCreate"]>[0] }, _context: unknown, info: GraphQLResolveInfo) => {
      const directive = FAKE_SHOPIFY_SCHEMA.getDirective("idempotent")!;
      const key = getDirectiveValues(directive, info.fieldNodes[0]!, info.variableValues)?.key as string | undefined;
      if (!key)
        throw new GraphQLError("refundCreate requires the @idempotent directive with a key.", { extensions: { code: "BAD_REQUEST" } });
      return shop.refundCreate(args.input, key);
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

export async function startFakeShopify(options: { accessToken?: string; apiVersion?: string } = {}): Promise<TFakeShopify> {
  const accessToken = options.accessToken ?? "shpat_fake_0123456789abcdef";
  const path = `/admin/api/${options.apiVersion ?? "2026-04"}/graphql.json`;
  const shop = new Shop();
  const failures: { kind: TFailure; slowMs: number; operation: string | undefined }[] = [];
  const requests = new Map<string, number>();

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== "POST" || new URL(req.url ?? "/", "http://shop").pathname !== path) return send(res, 404, { errors: "Not Found" });
    if (req.headers["x-shopify-access-token"] !== accessToken)
      return send(res, 401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
    const text = await readBody(req);
    let request: { query?: string; variables?: Record<string, unknown>; operationName?: string };
    try {
      request = JSON.parse(text) as typeof request;
    } catch {
      return send(res, 400, { errors: { query: "Required parameter missing or invalid" } });
    }
    const operation = /(?:query|mutation)\s+(\w+)/.exec(request.query ?? "")?.[1] ?? "anonymous";
    requests.set(operation, (requests.get(operation) ?? 0) + 1);
    const at = failures.findIndex((f) => f.operation === undefined || f.operation === operation);
    const failure = at >= 0 ? failures.splice(at, 1)[0] : undefined;
    if (failure?.kind === "500") return send(res, 500, { errors: "Internal Server Error" });
    if (failure?.kind === "slow") await new Promise((r) => setTimeout(r, failure.slowMs));
    const result = await graphql({
      schema: FAKE_SHOPIFY_SCHEMA,
      source: request.query ?? "",
      rootValue: rootValue(shop),
      variableValues: request.variables ?? {},
      operationName: request.operationName,
    });
    // The work is done; the answer never arrives.
    if (failure?.kind === "lost") return res.socket?.destroy();
    if (failure?.kind === "hold") await new Promise((r) => setTimeout(r, failure.slowMs));
    send(res, 200, result);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { errors: String(error) }));
  });
  // Longer than a client keeps an idle connection (undici: 4 s), so that the client, not the fake,
  // closes it: a connection the fake closed just as the client reused it would fail a request the
  // test did not mean to fail.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    accessToken,
    addCustomer(c) {
      const customer = { id: shop.gid("Customer"), ...c };
      shop.customers.set(customer.id, customer);
      return customer;
    },
    addOrder(o) {
      const order: TFakeOrder = {
        id: shop.gid("Order"),
        name: o.name ?? `#${1001 + shop.orders.size}`,
        email: o.email ?? null,
        customerId: o.customerId ?? null,
        createdAt: o.createdAt ?? new Date(Date.now() - 10 * 86_400_000).toISOString(),
        totalCents: o.totalCents,
        currency: o.currency ?? "USD",
        title: o.title,
        productType: o.productType ?? "",
        deliveredAt: o.deliveredAt ?? null,
        country: o.country ?? "US",
        gateway: o.gateway ?? "shopify_payments",
      };
      shop.orders.set(order.id, order);
      return order;
    },
    refundInShop(orderId, amountCents, note = null) {
      const refund: TFakeRefund = {
        id: shop.gid("Refund"),
        orderId,
        amountCents,
        note,
        createdAt: new Date().toISOString(),
        status: "SUCCESS",
        errorCode: null,
        gateway: shop.orders.get(orderId)?.gateway ?? "manual",
      };
      shop.refunds.push(refund);
      return refund;
    },
    refundsOf: (orderId) => shop.refunds.filter((r) => r.orderId === orderId),
    refundsStartAs(status, errorCode = null) {
      shop.startAs = { status, errorCode };
    },
    settleRefund(refundId, status, errorCode = null) {
      const refund = shop.refunds.find((r) => r.id === refundId);
      if (!refund) throw new Error(`the fake shop has no refund ${refundId}`);
      refund.status = status;
      refund.errorCode = errorCode;
    },
    failNext(kind, times = 1, slowMs = 2_000, operation) {
      for (let i = 0; i < times; i++) failures.push({ kind, slowMs, operation });
    },
    deleteOrder(orderId) {
      shop.orders.delete(orderId);
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
