// The logger's own rules, on its real configuration (createLogger) writing to a stream the test
// reads: the context's ids on every line, secrets replaced wherever they sit, errors with their type.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { annotateContext, enterContext, withContext } from "./context";
import { createLogger, errorFields, REDACTED } from "./logger";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(text));
      done();
    },
  });
  return { lines, log: createLogger(stream, "debug") };
}

describe("the logger", () => {
  it("puts the context's ids on every line: the unit's, what it learns, and a run's only inside the run", async () => {
    const { lines, log } = capture();
    await withContext({ requestId: "req-1" }, async () => {
      log.error("first");
      annotateContext({ userId: "user-1" });
      const run = async () => {
        await Promise.resolve();
        enterContext({ runId: "run-1", ticketId: "ticket-1" });
        await Promise.resolve();
        log.error("in the run");
      };
      await run();
      log.error("after the run");
    });
    log.error("outside");
    expect(lines.map(({ msg, requestId, userId, runId, ticketId }) => ({ msg, requestId, userId, runId, ticketId }))).toEqual([
      { msg: "first", requestId: "req-1", userId: undefined, runId: undefined, ticketId: undefined },
      { msg: "in the run", requestId: "req-1", userId: "user-1", runId: "run-1", ticketId: "ticket-1" },
      { msg: "after the run", requestId: "req-1", userId: "user-1", runId: undefined, ticketId: undefined },
      { msg: "outside", requestId: undefined, userId: undefined, runId: undefined, ticketId: undefined },
    ]);
  });

  it("replaces secrets wherever they sit in a logged object, and keeps the rest", () => {
    const { lines, log } = capture();
    log.error(
      {
        password: "pw-top",
        user: { email: "a@example.com", password: "pw-nested", apiKey: "key-nested" },
        request: {
          method: "POST",
          headers: {
            cookie: "authjs.session-token=abc",
            authorization: "Bearer xyz",
            "x-countersign-signature": "sha256=def",
            "content-type": "application/json",
          },
        },
        headers: { "set-cookie": "authjs.session-token=ghi" },
        env: { INTAKE_SECRET: "intake-secret-value", DATABASE_URL: "postgresql://app:pw@db/x", PORT: "3000" },
        deep: { a: { secret: "deep-secret" } },
      },
      "with secrets",
    );
    const text = JSON.stringify(lines);
    for (const secret of [
      "pw-top",
      "pw-nested",
      "key-nested",
      "session-token",
      "Bearer xyz",
      "sha256=def",
      "ghi",
      "intake-secret-value",
      "app:pw",
      "deep-secret",
    ])
      expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({
      password: REDACTED,
      user: { email: "a@example.com", password: REDACTED, apiKey: REDACTED },
      request: {
        method: "POST",
        headers: { cookie: REDACTED, authorization: REDACTED, "x-countersign-signature": REDACTED, "content-type": "application/json" },
      },
      env: { INTAKE_SECRET: REDACTED, DATABASE_URL: REDACTED, PORT: "3000" },
      deep: { a: { secret: REDACTED } },
    });
  });

  it("writes an error with its type, message and stack, and the level as a word", () => {
    const { lines, log } = capture();
    log.error(errorFields(new TypeError("boom")), "failed");
    log.error(errorFields("not an error"), "failed too");
    expect(lines[0]).toMatchObject({
      level: "error",
      msg: "failed",
      err: { type: "TypeError", message: "boom", stack: expect.stringContaining("TypeError: boom") },
    });
    expect(lines[1]).toMatchObject({ err: { message: "not an error" } });
  });
});
