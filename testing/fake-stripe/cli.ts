// The fake Stripe as a process of its own, for tests and commands that run the app in other processes:
//   node --import tsx testing/fake-stripe/cli.ts --port N [--webhook-url U] [--webhook-secret S] [--settle-after-ms M] [--api-key K]
// Prints one JSON line {"ready":true,"port":N} once it listens; it is driven through /_fake/ (control.ts).
import { parseArgs } from "node:util";
import { startFakeStripe } from "./index";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    "webhook-url": { type: "string" },
    "webhook-secret": { type: "string" },
    "settle-after-ms": { type: "string", default: "0" },
    "api-key": { type: "string" },
  },
});

const number = (name: string, text: string) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, not ${text}`);
  return n;
};

const fake = await startFakeStripe({
  port: number("port", values.port),
  settleAfterMs: number("settle-after-ms", values["settle-after-ms"]),
  webhookUrl: values["webhook-url"] ?? null,
  webhookSecret: values["webhook-secret"],
  apiKey: values["api-key"],
});
process.stdout.write(`${JSON.stringify({ ready: true, port: fake.port })}\n`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void fake.stop().then(() => process.exit(0)));
}
