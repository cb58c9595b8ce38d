// A bound on the password checks one process runs at once. Each scrypt comparison takes a CPU core
// and 32 MiB for a tenth of a second or more; forty at once (a flood of bogus sign-ins) took the
// machine from everyone, signed-in reviewers included. So at most `concurrency` run, at most `queue`
// wait for a turn, and any attempt beyond that is refused at once – never queued without end – with
// an answer that says to try again. The bound is per process on purpose: it guards this process's
// CPU and memory, which no other instance shares.
import { env } from "../env";

export type TGated<T> = { ran: true; value: T } | { ran: false };

export interface THashGate {
  /** Runs `task` when a turn is free; refuses at once (`ran: false`) when the queue is full too. */
  run<T>(task: () => Promise<T>): Promise<TGated<T>>;
  /** Would `run` refuse right now? Lets a caller turn an attempt away before doing any other work for it. */
  full(): boolean;
  /** Checks running and waiting now (for tests and metrics). */
  load(): { running: number; waiting: number };
}

export function createHashGate(options: { concurrency: number; queue: number }): THashGate {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    // A waiter takes the finished task's turn directly: `running` stays as it is, so nobody who
    // arrives in between can take the turn out of order.
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<TGated<T>> {
      if (running < options.concurrency) running++;
      else if (waiting.length < options.queue) await new Promise<void>((turn) => waiting.push(turn));
      else return { ran: false };
      try {
        return { ran: true, value: await task() };
      } finally {
        release();
      }
    },
    full: () => running >= options.concurrency && waiting.length >= options.queue,
    load: () => ({ running, waiting: waiting.length }),
  };
}

// On globalThis: Next.js may load this module once for the sign-in route and again for the sign-in
// form's action, and two gates would each let `concurrency` through.
const SHARED = Symbol.for("countersign.signInHashGate");

/** This process's gate for sign-in password checks, sized by SIGNIN_HASH_CONCURRENCY and SIGNIN_HASH_QUEUE. */
export function signInHashGate(): THashGate {
  const holder = globalThis as { [SHARED]?: THashGate };
  holder[SHARED] ??= createHashGate({ concurrency: env().SIGNIN_HASH_CONCURRENCY, queue: env().SIGNIN_HASH_QUEUE });
  return holder[SHARED];
}
