// The fake as a process of its own: started as the chaos command starts it, driven through /_fake/
// and the official client, and killed with SIGKILL.
import type { ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { createInterface } from "node:readline";
import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { killHard, runTs, spawnTs } from "../spawn-ts";
import { eventually, startWebhookReceiver, type TWebhookReceiver } from "./webhook-receiver";

const SECRET = "whsec_test_cli_0123456789";
let child: ChildProcess | undefined;
let receiver: TWebhookReceiver | undefined;
afterEach(async () => {
  if (child) await killHard(child);
  await receiver?.close();
  child = receiver = undefined;
});

async function start(args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const fake = spawnTs("testing/fake-stripe/cli.ts", args);
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: fake.stdout! }).once("line", resolve);
    fake.once("exit", (code) => reject(new Error(`the fake exited with ${code} before it was ready`)));
  });
  const ready = JSON.parse(first) as { ready: boolean; port: number };
  expect(ready.ready).toBe(true);
  return { child: fake, port: ready.port };
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

async function control<T>(port: number, method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const response = await fetch(`http://127.0.0.1:${port}/_fake/${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
  });
  return { status: response.status, json: (await response.json()) as T };
}

describe("the fake Stripe process", () => {
  it("prints its ready line, is driven through the control API and the official client, and dies cleanly on SIGKILL", async () => {
    receiver = await startWebhookReceiver(SECRET);
    const started = await start(["--port", "0", "--webhook-url", receiver.url, "--webhook-secret", SECRET, "--settle-after-ms", "60000"]);
    child = started.child;
    const { port } = started;
    const stripe = new Stripe("sk_test_fake", { host: "127.0.0.1", port, protocol: "http", maxNetworkRetries: 0 });

    const pi = await control<{ id: string; chargeId: string }>(port, "POST", "payment_intents", { amount: 3000, currency: "usd" });
    expect(pi.status).toBe(200);
    expect(pi.json.chargeId).toMatch(/^ch_/);
    const refund = await stripe.refunds.create({ payment_intent: pi.json.id, amount: 1000 });
    expect(refund.status).toBe("pending");

    expect((await control(port, "POST", "faults", { kind: "error500", match: "/v1/refunds" })).status).toBe(200);
    await expect(stripe.refunds.create({ payment_intent: pi.json.id, amount: 1000 })).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);

    const failed = await control<Stripe.Refund>(port, "POST", `refunds/${refund.id}/status`, {
      status: "failed",
      failureReason: "declined",
    });
    expect(failed.json).toMatchObject({ id: refund.id, status: "failed", failure_reason: "declined" });
    const refunds = await control<Stripe.Refund[]>(port, "GET", "refunds");
    expect(refunds.json.map((r) => [r.id, r.status])).toEqual([[refund.id, "failed"]]);
    await eventually(() => receiver!.events().length === 3, "three events");
    const events = await control<{ type: string; delivered: boolean }[]>(port, "GET", "events");
    expect(events.json.map((e) => [e.type, e.delivered])).toEqual([
      ["refund.created", true],
      ["refund.updated", true],
      ["refund.failed", true],
    ]);

    await killHard(child);
    expect(child.signalCode).toBe("SIGKILL");
    expect(await canConnect(port)).toBe(false);
  });

  it("refuses bad control input with 400 and an unknown refund with 404", async () => {
    const started = await start(["--port", "0"]);
    child = started.child;
    expect((await control(started.port, "POST", "faults", { kind: "explode" })).status).toBe(400);
    expect((await control(started.port, "POST", "payment_intents", { amount: -1, currency: "usd" })).status).toBe(400);
    expect((await control(started.port, "POST", "refunds/re_nope/status", { status: "failed" })).status).toBe(404);
    expect((await control(started.port, "GET", "nothing")).status).toBe(404);
  });

  it("exits with an error and no ready line when its port is taken", async () => {
    const first = await start(["--port", "0"]);
    child = first.child;
    const second = await runTs("testing/fake-stripe/cli.ts", ["--port", String(first.port)], process.env);
    expect(second.code).not.toBe(0);
    expect(second.stdout).toBe("");
    expect(second.stderr).toContain("EADDRINUSE");
    expect(await canConnect(first.port)).toBe(true);
  });
});
