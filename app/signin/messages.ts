// What the sign-in form says. Kept out of actions.ts: a "use server" file may export only actions.
export const INVALID_CREDENTIALS_MESSAGE = "That email and password do not match an active account.";

/** A flood of sign-ins is being turned away; the attempt was not counted. */
export const BUSY_MESSAGE = "Too many sign-ins at once right now; try again in a moment.";

export function lockedMessage(minutes: number): string {
  return `Too many failed sign-ins; try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** For next-auth's own redirects (/signin?error=…), e.g. after a direct POST to its callback. */
export function messageForErrorParam(error: string | undefined, code: string | undefined): string | undefined {
  if (!error) return undefined;
  if (error === "CredentialsSignin" && code === "locked") return "Too many failed sign-ins; try again later.";
  if (error === "CredentialsSignin" && code === "busy") return BUSY_MESSAGE;
  if (error === "CredentialsSignin") return INVALID_CREDENTIALS_MESSAGE;
  return "Sign-in failed. Try again.";
}
