import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ActionError, GENERIC_ERROR, formDataToObject, resultToHttp, runGuarded, type TGuardDeps } from "./action-result";
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
    const handler = vi.fn(async ({ input, user }: { input: z.output<typeof ZInput>; user: U }) => ({ total: input.amount * 2, by: user.id }));
    const result = await runGuarded(d, { access: "queue", input: ZInput }, handler, { amount: "21", note: "hi" });
    expect(result).toEqual({ status: "ok", total: 42, by: "u1" });
  });

  it("a handler cannot override the status", async () => {
    const result = await runGuarded(deps(reviewer), { access: "queue", input: z.object({}) }, async () => ({ status: "forbidden" as const }), {});
    expect(result.status).toBe("ok");
  });

  it("answers unauthenticated before looking at the input", async () => {
    const handler = vi.fn();
    expect(await runGuarded(deps(null), { access: "queue", input: ZInput }, handler, "garbage")).toEqual({ status: "unauthenticated" });
    expect(handler).not.toHaveBeenCalled();
  });

  it("answers forbidden for a role the area does not allow", async () => {
    const handler = vi.fn();
    expect(await runGuarded(deps(reviewer), { access: "admin", input: ZInput }, handler, { amount: 1, note: "" })).toEqual({ status: "forbidden" });
    expect(await runGuarded(deps(reviewer), { access: ["LEAD"], input: ZInput }, handler, { amount: 1, note: "" })).toEqual({ status: "forbidden" });
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

  it("shows an ActionError's message and hides anything else", async () => {
    const d = deps(reviewer);
    const expected = await runGuarded(d, { access: "queue", input: z.object({}) }, async () => {
      throw new ActionError("This approval has expired.", "approval_expired");
    }, {});
    expect(expected).toEqual({ status: "error", message: "This approval has expired." });
    expect(d.log).not.toHaveBeenCalled();

    const unexpected = await runGuarded(d, { access: "queue", input: z.object({}) }, async () => {
      throw new Error("connection reset by peer at 10.0.0.5");
    }, {});
    expect(unexpected).toEqual({ status: "error", message: GENERIC_ERROR });
    expect(d.log).toHaveBeenCalledOnce();
  });

  it("lets the framework's control-flow errors (redirect) through", async () => {
    const redirect = new Error("NEXT_REDIRECT");
    await expect(runGuarded(deps(reviewer), { access: "queue", input: z.object({}) }, async () => { throw redirect; }, {})).rejects.toBe(redirect);
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
      body: { error: "invalid", fieldErrors: { a: ["bad"] }, formErrors: [] },
    });
    expect(resultToHttp({ status: "error", message: "m" }, 409)).toEqual({ status: 409, body: { error: "error", message: "m" } });
    expect(resultToHttp({ status: "error", message: "m" }).status).toBe(500);
  });
});
