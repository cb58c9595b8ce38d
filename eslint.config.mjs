import { fileURLToPath } from "node:url";
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const root = fileURLToPath(new URL(".", import.meta.url));

// ── The parts of lib/ and what each may import ────────────────────────────────────────────────────
// A declared graph (ARCHITECTURE.md, "Parts and import rules"): each part names the parts it may
// import, and nothing else; the graph has no cycle (testing/import-rules checks it, with a fixture for
// every edge it forbids). contracts holds the vocabulary every part shares (reason codes, statuses,
// actions, the manifest and its pins, canonical JSON and digests, audit action names, roles,
// citations), so nothing needs a part above it for a word. lib/jobs/worker.ts is the worker's
// composition root and lib/jobs/handlers/ its handlers – each hands a job to the part that owns the
// effect – so they may import any part; the jobs' definitions (lib/jobs/definitions/) stay in jobs,
// where every producer may import them.
// Test files are exempt from the graph (they drive parts from outside), not from the other rules.
const BASE = ["contracts", "observability"];
export const PARTS = {
  contracts: { paths: ["lib/contracts"], may: [] },
  observability: { paths: ["lib/observability"], may: ["contracts"] },
  http: { paths: ["lib/http"], may: BASE },
  env: { paths: ["lib/env.ts"], may: [...BASE, "http"] },
  db: { paths: ["lib/db"], may: [...BASE, "env"] },
  // env, audit, intake: the orders API reads its secrets, audits each write and shares the intake's
  // signed-delivery reader; the shop's source reads its settings.
  orders: { paths: ["lib/orders"], may: [...BASE, "env", "db", "audit", "intake"] },
  tickets: { paths: ["lib/tickets"], may: [...BASE, "db"] },
  // A ticket's conversation moving on: follow-ups (the intake's signed reader; the order source for the
  // order a follow-up names; the approvals store for the request it supersedes), messages from the
  // helpdesk connectors (the deliveries store: the thread a message belongs to) and internal notes.
  conversations: {
    paths: ["lib/conversations"],
    may: [...BASE, "env", "db", "tickets", "audit", "orders", "intake", "approvalStore", "deliveryStore"],
  },
  audit: { paths: ["lib/audit"], may: [...BASE, "env", "db", "tickets"] },
  jobs: { paths: ["lib/jobs"], except: ["lib/jobs/worker.ts", "lib/jobs/handlers"], may: [...BASE, "env", "db", "audit"] },
  evidence: { paths: ["lib/evidence"], may: [...BASE, "db"] },
  policy: { paths: ["lib/policy"], may: [...BASE, "env", "db", "audit"] },
  // Policy documents as the team's content: import, edit, review, publish, retire. Retrieval reads the
  // rule of what is in effect from the database (countersign_policy_in_effect), not from here.
  // jobs: an evaluation before publishing is a job, enqueued with the evaluation's row.
  documents: { paths: ["lib/documents"], may: [...BASE, "db", "audit", "policy", "jobs"] },
  intake: { paths: ["lib/intake"], may: [...BASE, "env", "db", "tickets", "audit"] },
  queue: { paths: ["lib/queue"], may: [...BASE, "env", "db", "orders", "tickets", "audit", "policy"] },
  agent: {
    paths: ["lib/agent"],
    may: [...BASE, "env", "db", "orders", "tickets", "audit", "jobs", "evidence", "policy", "intake", "queue", "approvalStore"],
  },
  llm: { paths: ["lib/llm"], may: [...BASE, "env", "db", "evidence", "policy", "agent"] },
  ledger: { paths: ["lib/ledger"], may: [...BASE, "env", "db", "orders", "audit", "policy"] },
  // The payment providers (ledger-only, Stripe, the Shopify shop) and their settings: asked by the
  // settlement, never by the agent. orders: the Shopify provider refunds through the shop's Admin API
  // client and with the refund note the order source recognises as the app's own.
  payments: { paths: ["lib/payments"], may: [...BASE, "env", "db", "policy", "orders"] },
  // The approvals store writes its tables for the approvals and for the run that opens a request: so it
  // sits below both, and decides nothing.
  approvalStore: { paths: ["lib/approvals/store"], may: [...BASE, "db", "policy", "deliveryStore"] },
  // Replies delivered (lib/delivery): its store writes the deliveries and helpdesk threads, and the
  // approvals store adds a delivery with each released reply, in the same statement.
  deliveryStore: { paths: ["lib/delivery/store"], may: [...BASE, "db"] },
  // intake: a helpdesk's ticket enters through the intake's own path; jobs: nothing enqueued here.
  delivery: {
    paths: ["lib/delivery"],
    except: ["lib/delivery/store"],
    may: [...BASE, "env", "db", "tickets", "audit", "intake", "deliveryStore"],
  },
  approvals: {
    paths: ["lib/approvals"],
    except: ["lib/approvals/store"],
    // evidence: a reply is held to the operation with the draft checks' reading of it (lib/evidence/check-reply.ts).
    may: [
      ...BASE,
      "env",
      "db",
      "orders",
      "tickets",
      "audit",
      "jobs",
      "evidence",
      "policy",
      "intake",
      "ledger",
      "payments",
      "approvalStore",
    ],
  },
  eval: {
    paths: ["lib/eval"],
    may: [
      ...BASE,
      "env",
      "db",
      "orders",
      "tickets",
      "audit",
      "jobs",
      "evidence",
      "policy",
      "intake",
      "agent",
      "llm",
      "ledger",
      "approvals",
      "conversations",
    ],
  },
  // intake: a route signed by a machine (signed-route.ts) reads its body with the intake's reader.
  auth: { paths: ["lib/auth"], may: [...BASE, "http", "env", "db", "tickets", "audit", "intake"] },
  // A customer's erasure, retention and export: every store that holds their personal data.
  privacy: {
    paths: ["lib/privacy"],
    may: [
      ...BASE,
      "env",
      "db",
      "audit",
      "jobs",
      "policy",
      "orders",
      "tickets",
      "intake",
      "agent",
      "approvalStore",
      "deliveryStore",
      "eval",
    ],
  },
  worker: { paths: ["lib/jobs/worker.ts", "lib/jobs/handlers"], may: "any" },
};

/** The graph's forbidden edges: every part a part may not import. */
export function forbiddenEdges() {
  return Object.entries(PARTS).flatMap(([name, part]) =>
    part.may === "any"
      ? []
      : Object.keys(PARTS)
          .filter((other) => other !== name && !part.may.includes(other))
          .map((other) => ({ from: name, to: other })),
  );
}

const layerZones = forbiddenEdges().map(({ from, to }) => {
  const part = PARTS[from];
  return {
    // A folder, or its files and folders but the excepted ones (globs: `lib/jobs/!(worker.ts|handlers)`
    // and the same with `/**`, for what its other folders hold).
    target: part.except
      ? part.paths.flatMap((p) => {
          const rest = `${p}/!(${part.except.map((e) => e.slice(p.length + 1)).join("|")})`;
          return [rest, `${rest}/**`];
        })
      : part.paths,
    from: PARTS[to].paths,
    // A part inside another's folder (the worker in lib/jobs, a store) is not that part: edges to it are its own.
    except: (PARTS[to].except ?? []).flatMap((inner) =>
      PARTS[to].paths.filter((p) => inner.startsWith(`${p}/`)).map((p) => `./${inner.slice(p.length + 1)}`),
    ),
    message: `lib/${from} may import ${part.may.join(", ") || "no other part"} – not ${to} (the graph is PARTS in eslint.config.mjs; a shared word belongs in lib/contracts).`,
  };
});

// The same rule (eslint-plugin-import's no-restricted-paths: imports resolved to files, so `../x`,
// `@/lib/x` and type-only imports are all caught) under three names, so a failure says which promise
// it breaks.
const noRestrictedPaths = nextVitals.find((config) => config.plugins?.import).plugins.import.rules["no-restricted-paths"];
// Pages, actions, routes and scripts reach the database only through lib/: no Prisma model call, raw
// query or transaction of their own (lib/ owns every table). Scripts that measure or break the
// database on purpose (the bench, the chaos run) and the database command itself are exempt.
const PRISMA_METHODS =
  "findUnique|findUniqueOrThrow|findFirst|findFirstOrThrow|findMany|create|createMany|createManyAndReturn|update|updateMany|upsert|delete|deleteMany|count|aggregate|groupBy";
const DATABASE_CALLS = [
  {
    selector: `CallExpression[callee.type='MemberExpression'][callee.object.type='MemberExpression'][callee.property.name=/^(${PRISMA_METHODS})$/]`,
    message: "No Prisma model call here: ask the lib/ function that owns the table.",
  },
  {
    selector: "MemberExpression[property.name=/^\\$(queryRaw|queryRawUnsafe|executeRaw|executeRawUnsafe|transaction)$/]",
    message: "No query or transaction here: ask the lib/ function that owns the table.",
  },
];
// Pages do not even hold the client: every lib/ function a page calls takes it by default.
const CLIENT_IMPORT = {
  selector:
    "ImportDeclaration[source.value=/(^|\\/)lib\\/db(\\/(index|driver))?$/] ImportSpecifier[imported.name=/^(db|driverOf|sqlRows|Prisma)$/]",
  message: "app/ does not hold the database client: lib/ functions take it by default.",
};
export const DATABASE_RULE_EXEMPT = [
  "**/*.test.ts",
  "scripts/bench/**",
  "scripts/bench.ts",
  "scripts/chaos.ts",
  "scripts/db.ts",
  "scripts/e2e-server.ts",
];

const countersign = {
  rules: {
    layers: noRestrictedPaths,
    "agent-never-imports-ledger": noRestrictedPaths,
    "lib-imports-no-app-seed-or-testing": noRestrictedPaths,
  },
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next/**",
    ".next-*/**",
    ".data/**",
    "generated/**",
    "node_modules/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
    "testing/import-rules/fixtures/**",
    ".stryker-tmp/**",
    "reports/mutation/**",
  ]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // useTestDb(), useDb() and Playwright's `use` are not React hooks; the rule only sees the name.
    files: ["**/*.test.ts", "testing/**/*.ts", "e2e/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // Domain code stays free of the framework: lib/ is plain TypeScript.
    files: ["lib/**/*.ts"],
    ignores: ["lib/auth/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["next", "next/*", "next-auth", "next-auth/*"],
              message: "lib/ is framework-free; keep Next.js in app/ and lib/auth/.",
            },
          ],
        },
      ],
    },
  },
  {
    // The agent proposes; it can never move money. Tests included.
    files: ["lib/agent/**/*.{ts,tsx}"],
    plugins: { countersign },
    rules: {
      "countersign/agent-never-imports-ledger": [
        "error",
        {
          basePath: root,
          zones: [
            {
              target: "lib/agent",
              from: "lib/ledger",
              message:
                "Nothing in lib/agent imports the ledger: a refund proposal is a row; only executeApprovedRefund, after a recorded approval, writes money.",
            },
          ],
        },
      ],
    },
  },
  {
    // The domain does not depend on pages, seed data or test helpers; its tests may.
    files: ["lib/**/*.{ts,tsx}"],
    ignores: ["lib/**/*.test.ts", "lib/**/*.test.tsx"],
    plugins: { countersign },
    rules: {
      "countersign/layers": ["error", { basePath: root, zones: layerZones }],
      "countersign/lib-imports-no-app-seed-or-testing": [
        "error",
        {
          basePath: root,
          zones: [
            {
              target: "lib",
              from: ["app", "prisma/seed"],
              message:
                "lib/ does not import app/ or prisma/seed/: pages and seed data sit above the domain (a caller passes what lib needs).",
            },
            {
              target: "lib",
              from: ["**/testing/**"],
              except: ["**/node_modules/**"],
              message: "lib/ does not import test helpers (a testing/ folder) outside test files.",
            },
          ],
        },
      ],
    },
  },
  {
    // Actions handle no errors of their own: a domain refusal is an AppError, which the wrapper
    // (lib/auth/authed.ts) answers with its code; anything else is the wrapper's to log.
    files: ["app/**/actions.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "TryStatement",
          message: "No try/catch in an action: throw AppError from the domain (lib/contracts/app-error.ts) and let authedAction answer it.",
        },
        ...DATABASE_CALLS,
        CLIENT_IMPORT,
      ],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: [...DATABASE_RULE_EXEMPT, "app/**/actions.ts"],
    rules: { "no-restricted-syntax": ["error", ...DATABASE_CALLS, CLIENT_IMPORT] },
  },
  {
    files: ["scripts/**/*.ts"],
    ignores: DATABASE_RULE_EXEMPT,
    rules: { "no-restricted-syntax": ["error", ...DATABASE_CALLS] },
  },
]);
