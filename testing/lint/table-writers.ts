// Which code writes which table. Every table belongs to one store, and only that store's files may
// write it: by a Prisma model call, by SQL text (INSERT, UPDATE, DELETE, in a string, a template or a
// CTE fragment), or by calling the SQL function in a migration that writes it. The scan reads the
// source as text, so it sees every style the codebase has used; the test beside it holds the tree to
// STORES and checks the scan itself against a sample of each style.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Each table group's store: the folder or file whose code alone may write the group's tables. */
export const STORES = {
  tickets: { tables: ["Ticket", "TicketSearchKey", "TicketMessage"], store: ["lib/tickets/store/"] },
  approvals: {
    tables: ["ApprovalRequest", "ApprovalDecision", "RefundProposal", "OutboxMessage"],
    store: ["lib/approvals/store/"],
  },
  runs: { tables: ["AgentRun", "TraceEvent", "AgentBatch", "AgentBatchItem"], store: ["lib/agent/store/"] },
  // The ledger's one writer is its SQL function (countersign_write_refund); the store wraps it.
  // The ledger's writers are its SQL functions (countersign_write_refund adds a row,
  // countersign_move_refund records the provider's state on it); the store wraps them.
  ledger: { tables: ["LedgerEntry", "countersign_write_refund", "countersign_move_refund"], store: ["lib/ledger/store/"] },
  payments: { tables: ["PaymentEvent"], store: ["lib/payments/store/"] },
  deliveries: { tables: ["ReplyDelivery", "HelpdeskThread"], store: ["lib/delivery/store/"] },
  // The chain's one writer is its SQL function (countersign_append_audit); the store wraps it.
  audit: {
    tables: ["AuditEvent", "AuditStream", "AuditCheckpoint", "AuditVerification", "countersign_append_audit"],
    store: ["lib/audit/store/"],
  },
  // pg-boss's own tables and functions, and its client.
  jobs: { tables: ["pgboss"], store: ["lib/jobs/"] },
  orders: { tables: ["Customer", "Order", "ExternalRefund", "OrderDelivery"], store: ["lib/orders/order-store.ts"] },
  people: { tables: ["User", "UserSession", "PasswordLink", "SignInThrottle"], store: ["lib/auth/"] },
  // The sign-in policy is a setting too, written by the part that enforces it.
  policies: { tables: ["Setting"], store: ["lib/policy/", "lib/auth/update-sso-policy.ts"] },
  documents: { tables: ["PolicyDocument", "PolicyChunk"], store: ["lib/documents/store/"] },
  documentEvaluations: { tables: ["PolicyEvaluation"], store: ["lib/documents/store/evaluate-store.ts"] },
  evaluations: {
    tables: [
      "EvalRun",
      "EpisodeResult",
      "ReleaseDecision",
      "ShadowDecision",
      "EvalRequest",
      "RunAnnotation",
      "EpisodeCandidate",
      "SeriesAlert",
    ],
    store: ["lib/eval/"],
  },
  limits: { tables: ["RateLimitCounter"], store: ["lib/db/rate-limit-store.ts"] },
  // A customer's data exports, written by the part that produces and hands them out.
  privacy: { tables: ["SubjectExport"], store: ["lib/privacy/store/"] },
} as const satisfies Record<string, { tables: readonly string[]; store: readonly string[] }>;

export type TWrite = { table: string; line: number; text: string };

/** Prisma's model accessor for a table: `ApprovalRequest` → `approvalRequest`. */
const accessor = (table: string) => table[0]!.toLowerCase() + table.slice(1);
const PRISMA_WRITES = "create|createMany|createManyAndReturn|update|updateMany|upsert|delete|deleteMany";

function patternsOf(table: string): RegExp[] {
  if (table === "pgboss") return [/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+pgboss\.\w+/i, /\bnew PgBoss\b/];
  if (table.startsWith("countersign_")) return [new RegExp(`\\b${table}\\s*\\(`)];
  return [
    new RegExp(`\\b(?:INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+(?:ONLY\\s+)?(?:public\\.)?"${table}"`, "i"),
    new RegExp(`\\.${accessor(table)}\\s*\\.\\s*(?:${PRISMA_WRITES})\\s*\\(`),
  ];
}

/** Every write in a file's text, with its line (a statement may span lines: the scan joins them). */
export function writesIn(text: string): TWrite[] {
  const found: TWrite[] = [];
  // Line starts, to name where a match begins.
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  const lineOf = (index: number) => starts.findLastIndex((s) => s <= index) + 1;
  for (const { tables } of Object.values(STORES))
    for (const table of tables)
      for (const pattern of patternsOf(table))
        for (const match of text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`)))
          found.push({ table, line: lineOf(match.index), text: match[0].replace(/\s+/g, " ") });
  return found.sort((a, b) => a.line - b.line);
}

export function storeOf(table: string): readonly string[] {
  return Object.values(STORES).find((s) => (s.tables as readonly string[]).includes(table))!.store;
}

/**
 * Fixtures, not the product: the seeds fill a database with demo, browser-test and bulk data (the
 * bulk ones a million rows in a statement), and the bench builds the states it measures. Tests and
 * migrations are not scanned at all.
 */
export const FIXTURES = ["prisma/seed/", "scripts/bench/"];

/** Writes outside their table's store, in the project's code. */
export function writesOutsideStores(root: string): string[] {
  const files = execFileSync("git", ["ls-files", "lib", "app", "scripts", "components", "proxy.ts", "instrumentation*.ts"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\n")
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !FIXTURES.some((fixture) => f.startsWith(fixture)));
  return files.flatMap((file) =>
    writesIn(readFileSync(`${root}/${file}`, "utf8"))
      .filter((w) => !storeOf(w.table).some((store) => file === store || file.startsWith(store)))
      .map((w) => `${file}:${w.line} writes ${w.table} (${w.text}) outside its store ${storeOf(w.table).join(", ")}`),
  );
}
