// The Shopify Admin GraphQL API over plain fetch: POST {shop}/admin/api/{version}/graphql.json with the
// app's access token in X-Shopify-Access-Token. Every failure – an HTTP status other than 200, a body
// that is not JSON, GraphQL errors (THROTTLED among them), no answer within the timeout – is a
// ShopifyUnavailable: the caller decides nothing on an order it could not read.

export interface TShopifyConfig {
  /** The shop's origin, e.g. https://your-shop.myshopify.com (or a local fake's). */
  shopUrl: string;
  accessToken: string;
  /** e.g. 2026-04 (the first version where refundCreate must carry @idempotent). */
  apiVersion: string;
  timeoutMs?: number;
}

export class ShopifyUnavailable extends Error {
  constructor(
    message: string,
    /** The HTTP status, when there was an answer. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "ShopifyUnavailable";
  }
}

export function graphqlEndpoint(config: Pick<TShopifyConfig, "shopUrl" | "apiVersion">): string {
  return new URL(`/admin/api/${config.apiVersion}/graphql.json`, config.shopUrl).toString();
}

/** One GraphQL request; its `data`, or a ShopifyUnavailable. */
export async function shopifyGraphql<T>(config: TShopifyConfig, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(graphqlEndpoint(config), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "x-shopify-access-token": config.accessToken },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
      redirect: "error",
    });
  } catch (error) {
    throw new ShopifyUnavailable(`the shop did not answer: ${(error as Error).message}`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new ShopifyUnavailable(`the shop answered ${response.status}`, response.status);
  }
  let body: { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    throw new ShopifyUnavailable("the shop's answer is not JSON", 200);
  }
  if (body.errors?.length) {
    const first = body.errors[0]!;
    throw new ShopifyUnavailable(`the shop refused the request: ${first.extensions?.code ?? "error"}: ${first.message}`, 200);
  }
  if (body.data === undefined) throw new ShopifyUnavailable("the shop's answer has no data", 200);
  return body.data;
}
