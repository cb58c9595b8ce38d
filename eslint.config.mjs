import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".next-*/**", ".data/**", "generated/**", "node_modules/**", "test-results/**", "playwright-report/**", "next-env.d.ts"]),
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
      "no-restricted-imports": ["error", { patterns: [{ group: ["next", "next/*", "next-auth", "next-auth/*"], message: "lib/ is framework-free; keep Next.js in app/ and lib/auth/." }] }],
    },
  },
  {
    // Actions handle no errors of their own: a domain refusal is an AppError, which the wrapper
    // (lib/auth/authed.ts) answers with its code; anything else is the wrapper's to log.
    files: ["app/**/actions.ts"],
    rules: {
      "no-restricted-syntax": ["error", { selector: "TryStatement", message: "No try/catch in an action: throw AppError from the domain (lib/contracts/app-error.ts) and let authedAction answer it." }],
    },
  },
]);
