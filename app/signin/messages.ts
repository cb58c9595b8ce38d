// What the sign-in form says. Kept out of actions.ts: a "use server" file may export only actions.
export const INVALID_CREDENTIALS_MESSAGE = "That email and password do not match an active account.";

/** A flood of sign-ins is being turned away; the attempt was not counted. */
export const BUSY_MESSAGE = "Too many sign-ins at once right now; try again in a moment.";

export function lockedMessage(minutes: number): string {
  return `Too many failed sign-ins; try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** The right password, but this account signs in through the identity provider. */
export const SSO_REQUIRED_MESSAGE = "This account signs in through your identity provider: use the button below.";

/** Why the identity provider's sign-in was refused here (signInWithOidc's codes). */
const OIDC_REFUSALS: Record<string, string> = {
  email_unverified: "Your identity provider did not confirm your email address, so it cannot be matched to an account.",
  no_account: "There is no account for your email here. Ask an admin to invite you.",
  subject_mismatch: "Your email's account here is linked to another identity at the provider. Ask an admin.",
  no_mapped_role: "None of your groups at the identity provider gives a role here. Ask an admin.",
  inactive: "Your account here is deactivated. Ask an admin.",
};

/** For next-auth's own redirects (/signin?error=…), e.g. after a direct POST to its callback. */
export function messageForErrorParam(error: string | undefined, code: string | undefined): string | undefined {
  if (!error) return undefined;
  if (error === "CredentialsSignin" && code === "locked") return "Too many failed sign-ins; try again later.";
  if (error === "CredentialsSignin" && code === "busy") return BUSY_MESSAGE;
  if (error === "CredentialsSignin" && code === "sso_required") return SSO_REQUIRED_MESSAGE;
  if (error === "OidcRefused") return (code && OIDC_REFUSALS[code]) || "Your identity provider's sign-in was refused.";
  if (error === "CredentialsSignin") return INVALID_CREDENTIALS_MESSAGE;
  return "Sign-in failed. Try again.";
}
