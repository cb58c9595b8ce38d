// How a test reads a refusal: the AppError's code (lib/contracts/app-error.ts), "accepted" when the
// call went through, and anything else spelled out so a surprise fails loudly.
import { AppError } from "../lib/contracts/app-error";

export function refusalCode(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => "accepted",
    (error: unknown) => (error instanceof AppError ? error.code : `error: ${error}`),
  );
}
