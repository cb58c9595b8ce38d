// A child process for crash tests: takes a reply's delivery as the worker does (the job's handler,
// through the channel the settings name) and waits to be killed – the test kills it while Zendesk
// holds its answer. Usage: tsx testing/deliver-then-hang.ts URL DELIVERY_ID
import { openDb, useDb } from "../lib/db";
import { deliverReplyJob } from "../lib/jobs/handlers/reply-deliver";

const [url, deliveryId] = process.argv.slice(2) as [string, string];
const handle = openDb({ kind: "postgres", url, max: 2 });
useDb(handle);
console.log("delivering");
void deliverReplyJob({ data: { deliveryId }, client: handle.client, log: () => {}, lastAttempt: false }).catch(() => {});
setInterval(() => {}, 1 << 30);
