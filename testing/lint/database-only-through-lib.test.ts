// The lint rule that keeps pages, actions, routes and scripts away from the database except through
// lib/: each forbidden shape fails where it is forbidden, and the same call passes inside lib/ (the
// real tree is held to it by npm run lint itself).
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();

async function messages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message);
}

const FORBIDDEN = {
  "a Prisma model call": `import { client } from "./x";\nexport async function f() { return client.ticket.findMany({}); }\n`,
  "a raw query": `import { client } from "./x";\nexport async function f() { return client.$queryRaw\`SELECT 1\`; }\n`,
  "a transaction of its own": `import { client } from "./x";\nexport async function f() { return client.$transaction(async () => 1); }\n`,
  "the client itself, in a page": `import { db } from "@/lib/db";\nexport const x = db;\n`,
} as const;

describe("the database only through lib/", () => {
  it.each(Object.entries(FORBIDDEN))("refuses %s in a page", async (_name, code) => {
    expect(await messages(code, "app/(app)/fixture/page.tsx")).toHaveLength(1);
  });

  it.each(Object.entries(FORBIDDEN).filter(([name]) => !name.includes("client itself")))(
    "refuses %s in an action and a script",
    async (_name, code) => {
      expect(await messages(code, "app/(app)/fixture/actions.ts")).toHaveLength(1);
      expect(await messages(code, "scripts/fixture.ts")).toHaveLength(1);
    },
  );

  it("allows the same calls in lib/, which owns the tables", async () => {
    for (const code of Object.values(FORBIDDEN)) expect(await messages(code, "lib/tickets/fixture.ts")).toEqual([]);
  });
});
