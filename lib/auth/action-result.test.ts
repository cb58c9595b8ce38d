import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError, ERROR_CODE_LIST, ERROR_CODES } from "../contracts/app-error";
import { GENERIC_ERROR, formDataToObject, resultToHttp, runGuarded, type TGuardDeps } from "./action-result";
import type { Role } from "../contracts/roles";

type U = { id: string; role: Role };
const ZInput = z.object({ amount: z.coerce.number().int().positive(), note: z.string().max(5) });

function deps(user: U | null) {
  return {
    getUser: vi.fn(async () => user),
    rethrow: vi.fn((error: unknown) => {
      if (error instanceof Error && error.message === "NEXT_REDIRECT") throw error;
    }),
    log: vi.fn(),
  } satisfies TGuardDeps<U>;
}

const reviewer: U = { id: "u1", role: "REVIEWER" };

describe("runGuarded", () => {
  it("runs the handler with the parsed input and the user, and answers ok", async () => {
    const d = deps(reviewer);
    const handler = vi.fn(async ({ input, user }: { input: z.output<typeof ZInput>; user: U }) => ({
      total: input.amount * 2,
      by: user.id,
    }));
    const result = await runGuarded(d, { access: "queue", input: ZInput }, handler, { amount: "21", note: "hi" });
    expect(result).toEqual({ status: "ok", total: 42, by: "u1" });
  });

  it("a handler cannot override the status", async () => {
    const result = await runGuarded(
      deps(reviewer),
      { access: "queue", input: z.object({}) },
      async () => ({ status: "forbidden" as const }),
      {},
    );
    expect(result.status).toBe("ok");
  });

  it("answers unauthenticated before looking at the input", async () => {
    const handler = vi.fn();
    expect(await runGuarded(deps(null), { access: "queue", input: ZInput }, handler, "garbage")).toEqual({ status: "unauthenticated" });
    expect(handler).not.toHaveBeenCalled();
  });

  it("answers forbidden for a role the area does not allow", async () => {
    const handler = vi.fn();
    expect(await runGuarded(deps(reviewer), { access: "admin", input: ZInput }, handler, { amount: 1, note: "" })).toEqual({
      status: "forbidden",
    });
    expect(await runGuarded(deps(reviewer), { access: ["LEAD"], input: ZInput }, handler, { amount: 1, note: "" })).toEqual({
      status: "forbidden",
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it("answers invalid with field errors, from an object or a FormData", async () => {
    const form = new FormData();
    form.set("amount", "-3");
    form.set("note", "far too long");
    form.set("$ACTION_ID_abc", "");
    const result = await runGuarded(deps(reviewer), { access: "queue", input: ZInput }, vi.fn(), form);
    expect(result.status).toBe("invalid");
    if (result.status === "invalid") expect(Object.keys(result.fieldErrors).sort()).toEqual(["amount", "note"]);
  });

  it("answers an AppError's code and message, and hides anything else behind internal", async () => {
    const d = deps(reviewer);
    const expected = await runGuarded(
      d,
      { access: "queue", input: z.object({}) },
      async () => {
        throw new AppError("expired", "This approval has expired.");
      },
      {},
    );
    expect(expected).toEqual({ status: "error", code: "expired", message: "This approval has expired." });
    expect(d.log).not.toHaveBeenCalled();

    const unexpected = await runGuarded(
      d,
      { access: "queue", input: z.object({}) },
      async () => {
        throw new Error("connection reset by peer at 10.0.0.5");
      },
      {},
    );
    expect(unexpected).toEqual({ status: "error", code: "internal", message: GENERIC_ERROR });
    expect(d.log).toHaveBeenCalledOnce();
  });

  it("lets the framework's control-flow errors (redirect) through", async () => {
    const redirect = new Error("NEXT_REDIRECT");
    await expect(
      runGuarded(
        deps(reviewer),
        { access: "queue", input: z.object({}) },
        async () => {
          throw redirect;
        },
        {},
      ),
    ).rejects.toBe(redirect);
  });
});

describe("formDataToObject", () => {
  it("keeps single values, collects repeated ones, drops Next's internal fields", () => {
    const form = new FormData();
    form.append("a", "1");
    form.append("tag", "x");
    form.append("tag", "y");
    form.append("$ACTION_REF_1", "");
    expect(formDataToObject(form)).toEqual({ a: "1", tag: ["x", "y"] });
  });
});

describe("resultToHttp", () => {
  it("maps each failure to its status", () => {
    expect(resultToHttp({ status: "unauthenticated" }).status).toBe(401);
    expect(resultToHttp({ status: "forbidden" }).status).toBe(403);
    expect(resultToHttp({ status: "invalid", fieldErrors: { a: ["bad"] }, formErrors: [] })).toEqual({
      status: 400,
      body: { error: "invalid", code: "invalid", fieldErrors: { a: ["bad"] }, formErrors: [] },
    });
    expect(resultToHttp({ status: "error", code: "already_decided", message: "m" })).toEqual({
      status: 409,
      body: { error: "error", code: "already_decided", message: "m" },
    });
    expect(resultToHttp({ status: "error", code: "internal", message: "m" }).status).toBe(500);
  });
});

describe("the table of error codes", () => {
  it("gives every code a client or server error status and a meaning, and each thrown code answers with its own status", async () => {
    expect(ERROR_CODE_LIST.length).toBeGreaterThan(10);
    for (const code of ERROR_CODE_LIST) {
      const { http, meaning } = ERROR_CODES[code];
      expect(http, code).toBeGreaterThanOrEqual(400);
      expect(http, code).toBeLessThan(600);
      expect(meaning.trim().length, code).toBeGreaterThan(10);
      expect(new AppError(code, "m").httpStatus).toBe(http);
      // Through an action and out through a route: the code and the table's status, whoever threw it.
      const result = await runGuarded(
        deps(reviewer),
        { access: "queue", input: z.object({}) },
        async () => {
          throw new AppError(code, `refused: ${code}`);
        },
        {},
      );
      expect(result).toEqual({ status: "error", code, message: `refused: ${code}` });
      if (result.status === "error")
        expect(resultToHttp(result)).toEqual({ status: http, body: { error: "error", code, message: `refused: ${code}` } });
    }
  });

  it("keeps the codes the wrapper answers by itself in the same table, with the same statuses", () => {
    expect(resultToHttp({ status: "unauthenticated" }).status).toBe(ERROR_CODES.unauthenticated.http);
    expect(resultToHttp({ status: "forbidden" }).status).toBe(ERROR_CODES.forbidden.http);
    expect(resultToHttp({ status: "invalid", fieldErrors: {}, formErrors: [] }).status).toBe(ERROR_CODES.invalid.http);
  });
});
