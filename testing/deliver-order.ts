// A child process for crash tests: delivers one order to the orders API's rules (receiveOrders) on a
// PostgreSQL database, says "delivered" with the answer when done, then waits to be killed.
// Usage: tsx testing/deliver-order.ts URL SECRET ORDER_ID RAW_BODY HEADERS_JSON
import { openDb, useDb } from "../lib/db";
import { receiveOrders } from "../lib/orders/receive-orders";

const [url, secret, orderId, raw, headers] = process.argv.slice(2) as [string, string, string, string, string];
useDb(openDb({ kind: "postgres", url, max: 2 }));
const answer = await receiveOrders(
  {
    resource: "order",
    id: orderId,
    rawBody: Buffer.from(raw),
    headers: new Headers(JSON.parse(headers) as Record<string, string>),
    address: null,
  },
  { secrets: [secret], toleranceSeconds: 300 },
);
console.log(`delivered ${JSON.stringify(answer)}`);
setInterval(() => {}, 1 << 30);
