import { describe, expect, it } from "vitest";
import { createHashGate } from "./hash-gate";

/** A task that runs until the test lets it finish. */
function held() {
  let finish!: (value: string) => void;
  let started = false;
  const task = () => {
    started = true;
    return new Promise<string>((resolve) => (finish = resolve));
  };
  return { task, finish: (value: string) => finish(value), started: () => started };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the bound on password checks", () => {
  it("runs at most `concurrency` at once, queues at most `queue`, and refuses the rest at once", async () => {
    const gate = createHashGate({ concurrency: 2, queue: 1 });
    const [a, b, c] = [held(), held(), held()];
    const runA = gate.run(a.task);
    const runB = gate.run(b.task);
    const runC = gate.run(c.task);
    await settle();
    expect([a.started(), b.started(), c.started()]).toEqual([true, true, false]);
    expect(gate.load()).toEqual({ running: 2, waiting: 1 });

    // The queue is full: refused without waiting for anything, and the task never runs.
    expect(gate.full()).toBe(true);
    let ranRefused = false;
    expect(await gate.run(async () => (ranRefused = true))).toEqual({ ran: false });
    expect(ranRefused).toBe(false);

    // A finished check hands its turn to the one waiting.
    a.finish("a");
    expect(await runA).toEqual({ ran: true, value: "a" });
    await settle();
    expect(c.started()).toBe(true);
    expect(gate.load()).toEqual({ running: 2, waiting: 0 });
    expect(gate.full()).toBe(false);
    b.finish("b");
    c.finish("c");
    expect(await Promise.all([runB, runC])).toEqual([
      { ran: true, value: "b" },
      { ran: true, value: "c" },
    ]);
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });

  it("serves the queue in arrival order and never runs more than `concurrency` at once", async () => {
    const gate = createHashGate({ concurrency: 2, queue: 20 });
    const order: number[] = [];
    let running = 0;
    let most = 0;
    const runs = Array.from({ length: 12 }, (_, i) =>
      gate.run(async () => {
        order.push(i);
        most = Math.max(most, ++running);
        for (let k = 0; k < (i % 3) + 1; k++) await settle();
        running--;
        return i;
      }),
    );
    expect((await Promise.all(runs)).map((r) => r.ran && r.value)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(order).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(most).toBe(2);
  });

  it("gives the turn back when a check fails", async () => {
    const gate = createHashGate({ concurrency: 1, queue: 0 });
    await expect(gate.run(async () => Promise.reject(new Error("scrypt failed")))).rejects.toThrow("scrypt failed");
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
    expect(await gate.run(async () => "next")).toEqual({ ran: true, value: "next" });
  });

  it("with no queue, refuses everything beyond the running checks", async () => {
    const gate = createHashGate({ concurrency: 1, queue: 0 });
    const a = held();
    const runA = gate.run(a.task);
    expect(await gate.run(async () => "b")).toEqual({ ran: false });
    a.finish("a");
    expect(await runA).toEqual({ ran: true, value: "a" });
  });
});
