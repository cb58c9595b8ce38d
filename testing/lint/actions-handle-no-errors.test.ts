// The lint rule that keeps error handling out of server actions: a try/catch in an actions.ts under
// app/ fails `npm run lint`; the same code elsewhere, and the real actions, pass.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();

const ACTION_WITH_TRY = `"use server";
export async function act(): Promise<string> {
  try {
    return await Promise.resolve("ok");
  } catch (error) {
    return String(error);
  }
}
`;

async function rulesFired(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => m.ruleId ?? m.message);
}

describe("no try/catch in server actions", () => {
  it("fails an actions.ts under app/ that catches", async () => {
    expect(await rulesFired(ACTION_WITH_TRY, "app/(app)/fixture/actions.ts")).toContain("no-restricted-syntax");
  });

  it("leaves the same code alone outside an actions file", async () => {
    expect(await rulesFired(ACTION_WITH_TRY, "app/(app)/fixture/helpers.ts")).not.toContain("no-restricted-syntax");
  });

  it("passes every real action in the tree", async () => {
    const results = await eslint.lintFiles(["app/**/actions.ts"]);
    expect(results.length).toBeGreaterThan(4);
    expect(
      results.flatMap((r) => r.messages.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => `${r.filePath}:${m.line}`)),
    ).toEqual([]);
  });
});
