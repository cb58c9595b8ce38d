// A child process for crash tests: decides an approval through the real decideApproval, says so on
// stdout, then waits to be killed. Usage: tsx testing/decide-then-hang.ts URL APPROVAL DIGEST USER ROLE
import { decideApproval } from "../lib/approvals/decide-approval";
import { openDb, useDb } from "../lib/db";

const [url, approvalId, digest, userId, role] = process.argv.slice(2) as [string, string, string, string, "REVIEWER"];
const handle = openDb({ kind: "postgres", url, max: 2 });
useDb(handle);
await decideApproval({ approvalId, decision: "approve", digest, actor: { id: userId, role }, client: handle.client });
console.log("decided");
setInterval(() => {}, 1 << 30);
