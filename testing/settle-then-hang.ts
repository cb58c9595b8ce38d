// A child process for crash tests: settles an approved refund (the refund job's work) against the
// provider the database's settings name, and waits to be killed – the test kills it while the
// provider holds its answer. Usage: tsx testing/settle-then-hang.ts URL APPROVAL_ID
import { settleApprovedRefund } from "../lib/approvals/settle-refund";
import { openDb, useDb } from "../lib/db";

const [url, approvalId] = process.argv.slice(2) as [string, string];
const handle = openDb({ kind: "postgres", url, max: 2 });
useDb(handle);
console.log("settling");
void settleApprovedRefund({ approvalId, client: handle.client }).catch(() => {});
setInterval(() => {}, 1 << 30);
